// The password scorer as the web app loads it: only ever through a dynamic import (see
// components/ui/password-strength.tsx), so the bundler makes it a chunk of its own, named after
// this file, that no page's entry pulls in.
export { passwordStrength } from '../../shared/password-strength';
