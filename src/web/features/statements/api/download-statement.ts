import type { CustomerAccountKind } from '../../../../shared/contracts/transactions';
import { fetchFile, saveFile } from '../../../lib/download';

/** GET /statements/{month}.pdf: saves the statement (a closed month's as issued, the current one's interim). */
export async function downloadStatement(input: { month: string; account: CustomerAccountKind }): Promise<void> {
  saveFile(await fetchFile(`/statements/${encodeURIComponent(input.month)}.pdf?account=${input.account}`));
}
