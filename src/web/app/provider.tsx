import type { QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import {
  QueryClientSlotContext,
  type QueryClientSlot,
} from '../lib/query-client-slot';

/**
 * Providers that live outside the router; the rest are in the root route. The query client
 * is made by the first screen that needs it (app/routes/query-layout), so the login page
 * loads without React Query; a test passes its own to seed data.
 */
export function AppProvider({
  queryClient,
  children,
}: {
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  const [slot] = useState<QueryClientSlot>(() => ({
    current: queryClient ?? null,
  }));
  return (
    <QueryClientSlotContext value={slot}>{children}</QueryClientSlotContext>
  );
}
