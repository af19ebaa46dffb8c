import type { z } from 'zod';
import type { ZExportQuery } from '../../../../shared/contracts/statements';
import { fetchFile, saveFile } from '../../../lib/download';

export type ExportValues = z.input<typeof ZExportQuery>;

/** GET /transaction/export: saves the CSV or OFX file of the range. */
export async function exportTransactions(values: ExportValues): Promise<void> {
  const query = new URLSearchParams({ format: values.format, account: values.account, from: values.from, to: values.to });
  saveFile(await fetchFile(`/transaction/export?${query.toString()}`));
}
