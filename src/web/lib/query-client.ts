import { QueryClient } from '@tanstack/react-query';

/**
 * No retries (a refused credential must not be tried again, and tests stay deterministic)
 * and no refetch on focus; server state lives only here.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
