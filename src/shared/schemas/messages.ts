import { z } from 'zod';
import { MAX_SMS_SEGMENTS } from '../limits.ts';
import { cleanRecipient, isValidRecipient } from '../recipient.ts';
import { countSms, isValidSender, SENDER_RULE_MESSAGE } from '../sms.ts';
import { AmountSchema, IdSchema, text, TimestampSchema } from './common.ts';

export const SendSmsSchema = z.object({
  sender: text('Sender')
    .trim()
    .min(1, 'Sender cannot be empty')
    // Empty is the spec's own message above, not this one.
    .refine(
      (sender) => sender === '' || isValidSender(sender),
      SENDER_RULE_MESSAGE,
    ),
  recipient: text('Recipient')
    .min(1, 'Recipient cannot be empty')
    .transform(cleanRecipient)
    .refine(
      isValidRecipient,
      'Recipient must be a phone number of 6 to 15 digits',
    ),
  body: text('Body')
    .min(1, 'Body cannot be empty')
    .refine(
      (body) => countSms(body).segments <= MAX_SMS_SEGMENTS,
      `Body is too long: at most ${MAX_SMS_SEGMENTS} segments`,
    ),
  reference: text('Reference')
    .max(100, 'Reference is too long')
    .optional()
    .default(''),
});
export type SendSmsInput = z.input<typeof SendSmsSchema>;

export const MessageSchema = z
  .object({
    id: IdSchema,
    clientId: IdSchema,
    sender: z.string(),
    recipient: z.string(),
    body: z.string(),
    reference: z.string(),
    state: z.string(),
    encoding: z.enum(['GSM-7', 'UCS-2']),
    segments: z.number().int(),
    price: AmountSchema,
    currency: z.string(),
    dateCreated: TimestampSchema,
    dateUpdated: TimestampSchema,
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;
