/**
 * The stored login (spec §3, §9): clear text in local storage under `email` and `password`.
 * Logged in exactly when both are non-empty (spec §4).
 */
const EMAIL_KEY = 'email';
const PASSWORD_KEY = 'password';

export interface Credentials {
  email: string;
  password: string;
}

function read(key: string): string {
  try {
    return window.localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

export function getCredentials(): Credentials | null {
  const email = read(EMAIL_KEY);
  const password = read(PASSWORD_KEY);
  return email && password ? { email, password } : null;
}

export function isLoggedIn(): boolean {
  return getCredentials() !== null;
}

export function saveCredentials({ email, password }: Credentials): void {
  window.localStorage.setItem(EMAIL_KEY, email);
  window.localStorage.setItem(PASSWORD_KEY, password);
}

/** Keeps the password but records a new e-mail (after the user changes it). */
export function saveEmail(email: string): void {
  window.localStorage.setItem(EMAIL_KEY, email);
}

export function clearCredentials(): void {
  window.localStorage.removeItem(EMAIL_KEY);
  window.localStorage.removeItem(PASSWORD_KEY);
}
