/** The bootstrap admin every test server is started with (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN = {
  email: 'admin@example.test',
  password: 'admin-password-1',
};
