// Side-effect imports that plug domains into shared mechanisms (user decorators, seed hooks).
// Each domain adds its own line; this file is imported by the server and by tests.
import './kyc/decorator';
import './ledger/opening';
export {};
