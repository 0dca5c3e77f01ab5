import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { PanelProvider } from '../../components/ui/side-panel';
import { createQueryClient } from '../../lib/query-client';
import { useQueryClientSlot } from '../../lib/query-client-slot';

/**
 * React Query for the screens below (register and both shells), in a lazy chunk of its own:
 * the login page needs none of it. One client for the whole visit, kept in the app's slot so
 * leaving for the login page and coming back keeps the cache until the next login drops it.
 * The side panel's provider sits inside: panel content reads server state too (links in it
 * need the router, which is above).
 */
export function QueryLayout() {
  const slot = useQueryClientSlot();
  const [client] = useState(() => {
    slot.current ??= createQueryClient();
    return slot.current;
  });
  return (
    <QueryClientProvider client={client}>
      <PanelProvider>
        <Outlet />
      </PanelProvider>
    </QueryClientProvider>
  );
}
