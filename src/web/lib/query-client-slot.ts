import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';

/**
 * Where the app's one QueryClient lives. React Query arrives with the first screen that reads
 * server state (the register screen and both shells, under app/routes/query-layout), not with
 * the login page, so the slot stays empty until then. Tests fill it beforehand to seed data.
 */
export interface QueryClientSlot {
  current: QueryClient | null;
}

export const QueryClientSlotContext = createContext<QueryClientSlot | null>(
  null,
);

export function useQueryClientSlot(): QueryClientSlot {
  const slot = useContext(QueryClientSlotContext);
  if (!slot) throw new Error('useQueryClientSlot needs the AppProvider');
  return slot;
}

/** Drops every cached answer, so no user sees the previous user's data. */
export function forgetUserData(slot: QueryClientSlot): void {
  slot.current?.removeQueries();
}
