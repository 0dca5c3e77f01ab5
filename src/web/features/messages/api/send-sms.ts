import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  Message,
  SendSmsSchema,
} from '../../../../shared/schemas/messages';
import { api, unwrap } from '../../../lib/api-client';

/** An SMS as the shared schema leaves it: sender trimmed, recipient cleaned (spec §5). */
export type SmsPayload = z.output<typeof SendSmsSchema>;

/** What is posted: the SMS and, when sent later, its `sendAt` (CONTRACT "Campaigns"). */
export type SmsRequest = SmsPayload & { sendAt?: string };

export async function sendSms(input: {
  clientId: string;
  sms: SmsRequest;
}): Promise<Message> {
  return unwrap(
    await api.post<Message>(
      `/clients/${encodeURIComponent(input.clientId)}/messages/sms`,
      { body: input.sms },
    ),
  );
}

export function useSendSms() {
  return useMutation({ mutationFn: sendSms });
}
