import { QueryClient } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { public?: boolean };
  }
}

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

/** Drops everything but public data (branding), so no user sees the previous user's data. */
export function forgetUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !query.meta?.public });
}
