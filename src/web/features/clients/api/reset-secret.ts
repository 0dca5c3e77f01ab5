import { useMutation } from '@tanstack/react-query';
import type { ClientWithSecret } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';

/** Replaces the secret; the answer carries the new one, shown this once. */
export async function resetSecret(clientId: string): Promise<ClientWithSecret> {
  return unwrap(
    await api.post<ClientWithSecret>(
      `/clients/${encodeURIComponent(clientId)}/resetSecret`,
    ),
  );
}

export function useResetSecret() {
  return useMutation({ mutationFn: resetSecret });
}
