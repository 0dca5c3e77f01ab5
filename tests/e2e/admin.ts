/** The bootstrap admin the e2e server is started with (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN = {
  email: 'e2e-admin@example.test',
  password: 'e2e-admin-password-1',
};
