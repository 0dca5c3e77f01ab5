import { clearCredentials } from '../../lib/credentials';

/** Logout clears both stored credentials (spec §4); the caller then goes to /login. */
export function logout(): void {
  clearCredentials();
}
