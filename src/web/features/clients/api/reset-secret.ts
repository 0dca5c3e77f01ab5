import { useMutation } from '@tanstack/react-query';
import type { ClientWithSecret } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';

/**
 * Replaces the secret; the answer carries the new one, shown this once. With `graceSeconds`
 * the old secret keeps working that long; without, the body stays empty as in the spec.
 */
export async function resetSecret({
  clientId,
  graceSeconds = 0,
}: {
  clientId: string;
  graceSeconds?: number;
}): Promise<ClientWithSecret> {
  return unwrap(
    await api.post<ClientWithSecret>(
      `/clients/${encodeURIComponent(clientId)}/resetSecret`,
      graceSeconds > 0 ? { body: { graceSeconds } } : undefined,
    ),
  );
}

export function useResetSecret() {
  return useMutation({ mutationFn: resetSecret });
}
