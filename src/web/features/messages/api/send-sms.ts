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
  /**
   * A 403 refusing this recipient (opted out, blocked) is the send's answer, shown by the form,
   * rather than a sign-out (api-client.ts). For a form that cannot ask beforehand.
   */
  refusalIsAnswer?: boolean;
}): Promise<Message> {
  return unwrap(
    await api.post<Message>(
      `/clients/${encodeURIComponent(input.clientId)}/messages/sms`,
      { body: input.sms, refusalIsAnswer: input.refusalIsAnswer },
    ),
  );
}

export function useSendSms() {
  return useMutation({ mutationFn: sendSms });
}
