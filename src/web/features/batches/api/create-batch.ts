import { useMutation } from '@tanstack/react-query';
import type {
  CreateBatchInput,
  CreatedBatch,
} from '../../../../shared/schemas/campaigns';
import { api, unwrap } from '../../../lib/api-client';

/** Sends one body to every recipient, all or nothing (CONTRACT "Campaigns"). */
export async function createBatch(input: {
  clientId: string;
  batch: CreateBatchInput;
}): Promise<CreatedBatch> {
  return unwrap(
    await api.post<CreatedBatch>(
      `/clients/${encodeURIComponent(input.clientId)}/batches`,
      { body: input.batch },
    ),
  );
}

export function useCreateBatch() {
  return useMutation({ mutationFn: createBatch });
}
