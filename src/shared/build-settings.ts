// Settings that the web build bakes into every page. The server checks its own values against
// build/settings.json at start-up so a stale build is noticed, not served silently.
export interface BuildTimeSettings {
  bankName: string;
  demoMode: boolean;
}

export const DEFAULT_BANK_NAME = 'Ledgerline Bank';

export function parseBoolean(value: string | undefined, fallback: boolean): boolean | undefined {
  if (value === undefined || value === '') return fallback;
  const normalized = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  return undefined;
}

export function buildTimeSettings(env: Record<string, string | undefined>): BuildTimeSettings {
  const bankName = (env.BANK_NAME ?? '').trim() || DEFAULT_BANK_NAME;
  const demoMode = parseBoolean(env.DEMO_MODE, true) ?? true;
  return { bankName, demoMode };
}
