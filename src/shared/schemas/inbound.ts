import { z } from 'zod';
import { KEYWORD_GROUPS, type Keyword } from '../keywords.ts';
import { DEFAULT_PAGE_SIZE, DELIVERY_METHODS } from '../limits.ts';
import {
  IdSchema,
  ListMetaSchema,
  pagingSchema,
  TimestampSchema,
} from './common.ts';
import { MESSAGE_STATES } from './messages.ts';
import { DateOrTimeSchema } from './periods.ts';

/**
 * CONTRACT "Two-way messaging": inbound messages and conversations, as their owner and staff
 * read them.
 */

export const INBOUND_ENCODINGS = ['GSM-7', 'Latin-1', 'UCS-2'] as const;
export const KEYWORDS = Object.keys(KEYWORD_GROUPS) as Keyword[];

export const InboundMessageSchema = z
  .object({
    id: IdSchema,
    clientId: IdSchema,
    /** The sender's number (digits, no `+`). */
    from: z.string(),
    /** The client's number it was sent to. */
    to: z.string(),
    body: z.string(),
    encoding: z.enum(INBOUND_ENCODINGS),
    segments: z.number().int().min(1),
    /** The method it arrived by. */
    method: z.enum(DELIVERY_METHODS),
    /** False when parts of a concatenated message were still missing 10 minutes on. */
    complete: z.boolean(),
    /** The opt-out keyword group the body is (UNSUBSCRIBE is STOP); null for any other text. */
    keyword: z.enum(KEYWORDS as [Keyword, ...Keyword[]]).nullable(),
    dateReceived: TimestampSchema,
  })
  .meta({ id: 'InboundMessage' });
export type InboundMessage = z.infer<typeof InboundMessageSchema>;

export const InboundMessageListSchema = ListMetaSchema.extend({
  messages: z.array(InboundMessageSchema),
}).meta({ id: 'InboundMessageList' });
export type InboundMessageList = z.infer<typeof InboundMessageListSchema>;

/**
 * A remote number as a query or path names it: at most 32 characters (an alphanumeric sender
 * can be a conversation too), no control characters; a leading `+` is dropped, since numbers
 * are stored as digits.
 */
export function remoteNumber(label: string) {
  return (
    z
      .string()
      .trim()
      .min(1, `${label} cannot be empty`)
      .max(32, `${label} is too long`)
      // eslint-disable-next-line no-control-regex -- refusing control characters is the point
      .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), {
        message: `${label} cannot hold control characters`,
      })
      .transform((value) => value.replace(/^\+/, ''))
  );
}

export const InboundQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend({
  /** Sent by this number. */
  from: remoteNumber('from').optional(),
  /** Sent to this number of the client. */
  to: remoteNumber('to').optional(),
  /** Received at or after: a date (its whole UTC day) or an ISO 8601 time. */
  since: DateOrTimeSchema.optional(),
  /** Received at or before: a date (its whole UTC day) or an ISO 8601 time. */
  until: DateOrTimeSchema.optional(),
});
export type InboundQuery = z.input<typeof InboundQuerySchema>;

export const DIRECTIONS = ['inbound', 'outbound'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const ConversationSchema = z
  .object({
    /** The remote number: a sender of inbound messages or a recipient of sent ones. */
    number: z.string(),
    lastMessageAt: TimestampSchema,
    lastBody: z.string(),
    lastDirection: z.enum(DIRECTIONS),
    inboundCount: z.number().int().nonnegative(),
    outboundCount: z.number().int().nonnegative(),
    /** The number opted out of this client's messages: a send to it is refused. */
    optedOut: z.boolean(),
  })
  .meta({ id: 'Conversation' });
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationListSchema = ListMetaSchema.extend({
  conversations: z.array(ConversationSchema),
}).meta({ id: 'ConversationList' });
export type ConversationList = z.infer<typeof ConversationListSchema>;

export const ConversationQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE);

export const ConversationListQuerySchema = ConversationQuerySchema.extend({
  /** `true`: only the numbers that wrote to the client (an inbox of replies). */
  inbound: z
    .enum(['true', 'false'], { error: 'inbound must be true or false' })
    .optional()
    .meta({
      description:
        '`true`: only the conversations of numbers that wrote to the client, not those it only sent to',
    }),
});

/** What an inbound message's `state` is in a thread: it has no delivery states. */
export const RECEIVED = 'RECEIVED';

export const ConversationItemSchema = z
  .object({
    direction: z.enum(DIRECTIONS),
    /** A Message's id (outbound) or an InboundMessage's id (inbound). */
    id: IdSchema,
    body: z.string(),
    /** Outbound: the message's state; inbound: always RECEIVED. */
    state: z.enum([...MESSAGE_STATES, RECEIVED]),
    /** When it was sent (accepted) or received. */
    date: TimestampSchema,
  })
  .meta({ id: 'ConversationItem' });
export type ConversationItem = z.infer<typeof ConversationItemSchema>;

export const ConversationThreadSchema = ListMetaSchema.extend({
  number: z.string(),
  optedOut: z.boolean(),
  items: z.array(ConversationItemSchema),
}).meta({ id: 'ConversationThread' });
export type ConversationThread = z.infer<typeof ConversationThreadSchema>;

export const ConversationParamsSchema = z.object({
  clientId: IdSchema,
  number: remoteNumber('Number'),
});

export const InboundParamsSchema = z.object({
  clientId: IdSchema,
  id: IdSchema,
});
