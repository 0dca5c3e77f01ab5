import { z } from 'zod';
import {
  DEFAULT_PAGE_SIZE,
  DELIVERY_METHODS,
  MAX_SMS_SEGMENTS,
  RECIPIENT_MAX_DIGITS,
  RECIPIENT_MIN_DIGITS,
} from '../limits.ts';
import {
  DELIVERY_ERROR_CODE_NAMES,
  DELIVERY_ERROR_CODES,
} from '../delivery-errors.ts';
import {
  NATIONAL_NUMBER_MESSAGE,
  RECIPIENT_PATTERN,
  cleanRecipient,
  isNationalNumber,
  isValidRecipient,
} from '../recipient.ts';
import {
  countSms,
  isValidSender,
  SENDER_MAX_DIGITS,
  SENDER_RULE_MESSAGE,
} from '../sms.ts';
import {
  AmountSchema,
  IdSchema,
  idOf,
  ListMetaSchema,
  pagingSchema,
  text,
  TimestampSchema,
} from './common.ts';

/**
 * CONTRACT "Message states": ACCEPTED (paid and queued) → SUBMITTED (a provider took it) →
 * DELIVERED | UNDELIVERED | EXPIRED | REJECTED (the provider's final word), or FAILED (no
 * provider took it; refunded). A send with `sendAt` is SCHEDULED (paid, held) until then, and
 * CANCELED (refunded) if cancelled before it.
 */
export const MESSAGE_STATES = [
  'SCHEDULED',
  'ACCEPTED',
  'SUBMITTED',
  'DELIVERED',
  'UNDELIVERED',
  'EXPIRED',
  'REJECTED',
  'FAILED',
  'CANCELED',
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];
export const FINAL_MESSAGE_STATES: readonly MessageState[] = [
  'DELIVERED',
  'UNDELIVERED',
  'EXPIRED',
  'REJECTED',
  'FAILED',
  'CANCELED',
];

/**
 * States of one attempt: SUBMITTED (the provider took it), then its receipt's final word
 * (DELIVERED, UNDELIVERED, EXPIRED, REJECTED); REFUSED (a permanent refusal at submit: the
 * message fails over) or FAILED (a transient error at submit: retried, then fails over);
 * UNAVAILABLE (the method could not be reached, e.g. the SMPP bind is down: the message waits
 * for it, and this is not counted as a try).
 */
export const ATTEMPT_STATES = [
  'SUBMITTED',
  'DELIVERED',
  'UNDELIVERED',
  'EXPIRED',
  'REJECTED',
  'REFUSED',
  'FAILED',
  'UNAVAILABLE',
] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

/** How far ahead a send may be scheduled (CONTRACT "Campaigns: scheduled and bulk sends"). */
export const MAX_SCHEDULE_DAYS = 35;

/** Built once: a schema built inside the check cost each scheduled send a schema. */
const DateTimeWithOffset = z.iso.datetime({ offset: true });

/**
 * `sendAt`: an ISO 8601 date-time with its offset, from now up to 35 days ahead. `now` is a
 * parameter so the console checks with the same rule as the server.
 */
export function sendAtSchema(now: () => number = Date.now) {
  return z
    .string('Send at must be an ISO 8601 date-time')
    .refine((value) => DateTimeWithOffset.safeParse(value).success, {
      message:
        'Send at must be an ISO 8601 date-time with its offset, such as 2026-12-01T09:00:00Z',
      abort: true,
    })
    .refine((value) => Date.parse(value) >= now() - 1000, {
      message: 'Send at must not be in the past',
      abort: true,
    })
    .refine(
      (value) => Date.parse(value) <= now() + MAX_SCHEDULE_DAYS * 86_400_000,
      `Send at must be at most ${MAX_SCHEDULE_DAYS} days ahead`,
    );
}

/** What the OpenAPI description says of `sendAt` (the refinements hold the rule). */
export const SEND_AT_DOCS = {
  description: `ISO 8601 date-time with its offset, from now up to ${MAX_SCHEDULE_DAYS} days ahead: the message is charged now and held (SCHEDULED) until then. Absent: sent at once`,
  format: 'date-time',
  examples: ['2026-12-01T09:00:00Z'],
};

export const SendSmsSchema = z.object({
  sender: text('Sender')
    .trim()
    .min(1, 'Sender cannot be empty')
    // Empty is the spec's own message above, not this one.
    .refine(
      (sender) => sender === '' || isValidSender(sender),
      SENDER_RULE_MESSAGE,
    )
    // The description's bounds (the refinement above holds the rule itself): up to 11
    // characters, or "+" and up to 15 digits.
    .meta({
      description: SENDER_RULE_MESSAGE,
      minLength: 1,
      maxLength: SENDER_MAX_DIGITS + 1,
      examples: ['Shop'],
    }),
  recipient: text('Recipient')
    .min(1, 'Recipient cannot be empty')
    .transform(cleanRecipient)
    // One message for a national number (a leading 0 once 00 is dropped), the spec's own for
    // anything else that is not 6 to 15 digits.
    .refine(isValidRecipient, {
      error: (issue) =>
        isNationalNumber(String(issue.input))
          ? NATIONAL_NUMBER_MESSAGE
          : 'Recipient must be a phone number of 6 to 15 digits',
    })
    .meta({
      description: `A phone number in international form: ${RECIPIENT_MIN_DIGITS} to ${RECIPIENT_MAX_DIGITS} digits once plus signs, dots, dashes and whitespace are removed and then a leading 00 (the international prefix); what still begins with 0 is a national number and refused`,
      pattern: RECIPIENT_PATTERN,
      examples: ['+44 7700 900123'],
    }),
  body: text('Body')
    .min(1, 'Body cannot be empty')
    .refine(
      (body) => countSms(body).segments <= MAX_SMS_SEGMENTS,
      `Body is too long: at most ${MAX_SMS_SEGMENTS} segments`,
    )
    .meta({
      description: `At most ${MAX_SMS_SEGMENTS} segments: GSM-7 text has 160 characters in one segment or 153 per part, other text (UCS-2) 70 or 67`,
      minLength: 1,
      // 10 parts of 153 GSM-7 characters: no body of more characters fits.
      maxLength: MAX_SMS_SEGMENTS * 153,
      examples: ['Your order has shipped'],
    }),
  reference: text('Reference')
    .max(100, 'Reference is too long')
    .optional()
    .default(''),
  /** Held (SCHEDULED, charged at once) until then; absent: sent at once. */
  sendAt: sendAtSchema().optional().meta(SEND_AT_DOCS),
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
    state: z.enum(MESSAGE_STATES),
    /** CONTRACT "Stopping traffic": "its error naming the reason". */
    error: z.string().nullable().meta({
      description:
        "Why a CANCELED message was cancelled: `canceled by the owner`, `canceled by staff`, `canceled: the client was deleted`, `canceled: the destination is blocked` or `canceled: the destination is outside the client's allowed prefixes`. Null otherwise (a provider's words are on the message's attempts)",
    }),
    /** Method of the latest attempt; null until the message is routed. */
    deliveryMethod: z.enum(DELIVERY_METHODS).nullable(),
    /** The latest attempt went to the built-in simulator (its method has no configuration). */
    simulated: z.boolean(),
    encoding: z.enum(['GSM-7', 'UCS-2']),
    segments: z.number().int().nonnegative(),
    /** The amount charged: segments × pricePerSegment, rounded to the balance's scale. */
    price: AmountSchema,
    /** The recipient's price per segment at accept time. */
    pricePerSegment: AmountSchema,
    /** The price list entry that priced it; null for the default price (SMS_PRICE). */
    pricePrefix: z.string().nullable(),
    currency: z.string(),
    /** The batch it was sent in; null for a single send. */
    batchId: IdSchema.nullable(),
    /** When a scheduled send is released into delivery; null when sent at once. */
    sendAt: TimestampSchema.nullable(),
    dateCreated: TimestampSchema,
    dateUpdated: TimestampSchema,
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;

/** `errorCode` and `providerErrorCode` (src/shared/delivery-errors.ts) beside an `error`. */
const DeliveryErrorShape = {
  errorCode: z
    .enum(DELIVERY_ERROR_CODE_NAMES)
    .nullable()
    .meta({
      description:
        'Why it was not delivered, the same whatever the provider (null when there is no error): ' +
        Object.entries(DELIVERY_ERROR_CODES)
          .map(([code, meaning]) => `\`${code}\`: ${meaning}.`)
          .join(' '),
    }),
  providerErrorCode: z.string().nullable().meta({
    description:
      "The provider's own code beside it: an SMPP command_status (`0x0b`), a receipt's `err`, Vonage's `status 7`, `HTTP 429`, the gateway's status; null when it gave none",
  }),
};

export const MessageAttemptSchema = z
  .object({
    method: z.enum(DELIVERY_METHODS),
    state: z.enum(ATTEMPT_STATES),
    /** The provider's id (one per part, comma-separated); null when no provider took it. */
    providerMessageId: z.string().nullable(),
    /** The provider's words; null when it was delivered or is still under way. */
    error: z.string().nullable(),
    ...DeliveryErrorShape,
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'MessageAttempt' });
export type MessageAttempt = z.infer<typeof MessageAttemptSchema>;

/** One try to POST a state change to the client's status callback URL. */
export const MessageCallbackSchema = z
  .object({
    /** The state the event announced. */
    state: z.string(),
    /** 1 for the first try of that event, then each retry. */
    attempt: z.number().int().nonnegative(),
    /** The receiver's HTTP status; null when it did not answer (or was refused). */
    status: z.number().int().nonnegative().nullable(),
    /** Null for a 2xx answer. */
    error: z.string().nullable(),
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'MessageCallback' });
export type MessageCallback = z.infer<typeof MessageCallbackSchema>;

export const MessageDetailSchema = MessageSchema.extend({
  attempts: z.array(MessageAttemptSchema),
  /** Status callback attempts, oldest first (empty for a client without a callback URL). */
  callbacks: z.array(MessageCallbackSchema),
}).meta({ id: 'MessageDetail' });
export type MessageDetail = z.infer<typeof MessageDetailSchema>;

export const MessageListSchema = ListMetaSchema.extend({
  messages: z.array(MessageSchema),
}).meta({ id: 'MessageList' });
export type MessageList = z.infer<typeof MessageListSchema>;

const DateQuerySchema = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date and time' })
  .or(z.iso.date({ message: 'must be an ISO 8601 date and time' }));

/** Filters of the message log (list and CSV); dates are ISO 8601, `until` exclusive. */
export const MessageFilterSchema = z.object({
  state: z.enum(MESSAGE_STATES).optional(),
  recipient: z
    .string()
    .max(32, 'recipient is too long')
    .transform(cleanRecipient)
    .optional(),
  since: DateQuerySchema.optional(),
  until: DateQuerySchema.optional(),
  /** The messages of one batch. */
  batchId: idOf('batchId').optional(),
});
export type MessageFilter = z.infer<typeof MessageFilterSchema>;

export const MessageQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend(
  MessageFilterSchema.shape,
);
export type MessageQuery = z.input<typeof MessageQuerySchema>;

/** `Idempotency-Key` of a send: printable ASCII, 1 to 255 characters. */
export const IdempotencyKeySchema = z
  .string()
  .regex(
    /^[\x21-\x7e][\x20-\x7e]{0,254}$/,
    'Idempotency-Key must be 1 to 255 printable ASCII characters',
  );

/**
 * The status callback's JSON body (CONTRACT "Status callbacks"; built by callbackBody in
 * src/server/delivery/callbacks/body.ts, whose test checks it against this schema): the OpenAPI
 * description's `webhooks.messageStatus`.
 */
export const StatusCallbackEventSchema = z
  .object({
    messageId: IdSchema,
    clientId: IdSchema,
    /** The send's `reference`; null when it had none. */
    reference: z.string().nullable(),
    state: z.enum(MESSAGE_STATES),
    /** Method of the latest attempt; null until the message is routed. */
    deliveryMethod: z.enum(DELIVERY_METHODS).nullable(),
    /** Why a message did not reach DELIVERED, as the provider said it; null otherwise. */
    error: z.string().nullable(),
    ...DeliveryErrorShape,
    /** When the message entered this state: order a message's events by it. */
    dateUpdated: TimestampSchema,
    /** The built-in simulator took it: nothing was sent to a phone. */
    simulated: z.boolean(),
  })
  .meta({
    id: 'StatusCallbackEvent',
    examples: [
      {
        messageId: '0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
        clientId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        reference: 'order-1042',
        state: 'DELIVERED',
        deliveryMethod: 'MELROSE_SMPP',
        error: null,
        errorCode: null,
        providerErrorCode: null,
        dateUpdated: '2026-11-28T09:00:02.000Z',
        simulated: false,
      },
    ],
  });
export type StatusCallbackEvent = z.infer<typeof StatusCallbackEventSchema>;
