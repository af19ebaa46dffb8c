// TRANSITION: admin/users.ts (converted by another branch) still imports discardFiles from here.
// File storage lives in files/service.ts; remove this file once nothing imports it.
export { discardFiles } from './service';
