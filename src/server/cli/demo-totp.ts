import { ConfigError, loadConfig } from '../config';
import { firstAdminTotpSecret, totpCodeAt } from '../factors/totp';
import { TOTP_PERIOD_SECONDS } from '../../shared/contracts/factors';

// `npm run demo:totp`: the code the first admin's authenticator app shows now, for the secret the
// seed enrolled (ADMIN_TOTP_SECRET, or the demo secret in demo mode). Reads the same environment
// as the server; touches no database.
function main(): number {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const secret = firstAdminTotpSecret(config);
  if (!secret) {
    console.error('No staff secret to read: set ADMIN_TOTP_SECRET, or run in demo mode (DEMO_MODE=true, the default).');
    return 1;
  }
  const now = new Date();
  const secondsLeft = TOTP_PERIOD_SECONDS - (Math.floor(now.getTime() / 1000) % TOTP_PERIOD_SECONDS);
  console.log(`${totpCodeAt(secret, now)}  (valid for ${secondsLeft} more second${secondsLeft === 1 ? '' : 's'}; each code signs in once)`);
  return 0;
}

process.exitCode = main();
