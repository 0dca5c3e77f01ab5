/** The bootstrap admin the e2e server is started with (ADMIN_EMAIL / ADMIN_PASSWORD). */
export { ADMIN } from '../support/admin.ts';
