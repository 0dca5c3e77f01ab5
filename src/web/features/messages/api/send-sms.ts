import { useMutation } from '@tanstack/react-query';
import type { Message } from '../../../../shared/schemas/messages';
import { api, unwrap } from '../../../lib/api-client';

export interface SmsPayload {
  sender: string;
  recipient: string;
  body: string;
  reference: string;
}

export async function sendSms(input: {
  clientId: string;
  sms: SmsPayload;
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
