import type { DB } from '../db/database';

/**
 * Other domains that keep personal data (KYC documents, profile pictures, loans...) register a hook
 * here to erase it when the back office closes a customer. Hooks run inside the closing transaction.
 */
type UserClosedHook = (trx: DB, userId: string) => Promise<void>;
const hooks: UserClosedHook[] = [];

export function onUserClosed(hook: UserClosedHook): void {
  hooks.push(hook);
}

export async function runUserClosedHooks(trx: DB, userId: string): Promise<void> {
  for (const hook of hooks) await hook(trx, userId);
}
