import { useMutation } from '@tanstack/react-query';
import type {
  CreateBatchInput,
  CreatedBatch,
} from '../../../../shared/schemas/campaigns';
import { api, unwrap } from '../../../lib/api-client';

/**
 * Sends one body to every recipient, all or nothing (CONTRACT "Campaigns"). `idempotencyKey`:
 * the same for every try of one send, so a try whose answer was lost creates nothing twice.
 * A recipient the server refuses (403: opted out, which the quotes by destination cannot
 * foresee, or a blocked destination) is the send's answer, shown by the form, not a sign-out.
 */
export async function createBatch(input: {
  clientId: string;
  batch: CreateBatchInput;
  idempotencyKey: string;
}): Promise<CreatedBatch> {
  return unwrap(
    await api.post<CreatedBatch>(
      `/clients/${encodeURIComponent(input.clientId)}/batches`,
      {
        body: input.batch,
        idempotencyKey: input.idempotencyKey,
        refusalIsAnswer: true,
      },
    ),
  );
}

/**
 * The Idempotency-Key of a send attempt: random, 32 hex digits. getRandomValues, unlike
 * randomUUID, is there on a console served over plain HTTP too.
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

export function useCreateBatch() {
  return useMutation({ mutationFn: createBatch });
}
