import { fetchFile, saveFile } from '../../../lib/download';

/** GET /admin/reports/trial-balance.{csv,pdf}: saves a closed day's trial balance under the server's file name. */
export async function downloadTrialBalance(input: { date: string; format: 'csv' | 'pdf' }): Promise<void> {
  saveFile(await fetchFile(`/admin/reports/trial-balance.${input.format}?date=${encodeURIComponent(input.date)}`));
}
