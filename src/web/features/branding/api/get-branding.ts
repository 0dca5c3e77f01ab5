import { useSyncExternalStore } from 'react';
import type { Branding } from '../../../../shared/schemas/branding';
import { api, unwrap } from '../../../lib/api-client';

/** Branding and the SMS price (GET /api/config), read at run time so a change needs no rebuild. */
export async function getBranding(): Promise<Branding> {
  return unwrap(await api.get<Branding>('/config', { auth: false }));
}

/** What a screen sees: `data` once it arrived, `isPending` until the first answer. */
export interface BrandingState {
  data: Branding | undefined;
  isPending: boolean;
}

/*
 * The branding is public and fixed for the life of the page, and every screen shows it, the
 * login page first: it is read once and kept here rather than in React Query, so the login
 * page needs no React Query at all. A failed read is tried again by the next screen showing it.
 */
let state: BrandingState = { data: undefined, isPending: true };
let request: Promise<void> | null = null;
const listeners = new Set<() => void>();

function publish(next: BrandingState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Starts reading the branding unless it is known or on its way (main.tsx calls it at once). */
export function loadBranding(): void {
  if (state.data || request) return;
  request = getBranding()
    .then(
      (data) => publish({ data, isPending: false }),
      () => publish({ data: undefined, isPending: false }),
    )
    .finally(() => {
      request = null;
    });
}

/** Sets the branding as if it had been read (component tests start with it known). */
export function primeBranding(data: Branding): void {
  publish({ data, isPending: false });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  loadBranding();
  return () => listeners.delete(listener);
}

const snapshot = () => state;

export function useBranding(): BrandingState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
