import { useSyncExternalStore } from 'react';

/**
 * A one-slot message for the Login screen: why the user landed there (credentials refused,
 * registration outcome, password changed). Kept in memory because every writer navigates
 * within the same page.
 */
export interface AuthNotice {
  tone: 'error' | 'success';
  text: string;
}

let current: AuthNotice | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function setAuthNotice(notice: AuthNotice): void {
  current = notice;
  emit();
}

export function clearAuthNotice(): void {
  if (current === null) return;
  current = null;
  emit();
}

export function getAuthNotice(): AuthNotice | null {
  return current;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAuthNotice(): AuthNotice | null {
  return useSyncExternalStore(subscribe, getAuthNotice, getAuthNotice);
}

export const CREDENTIALS_REFUSED =
  'Your e-mail or password was not accepted. Please log in again.';
export const ACCESS_REFUSED =
  'Your account is not allowed to do that. Please log in again.';
