import { z } from 'zod';
import { KEYWORD_GROUPS, type Keyword } from '../keywords.ts';
import { IdSchema, TimestampSchema } from './common.ts';

/**
 * The inbound callback's JSON body (CONTRACT "Two-way messaging", Inbound callbacks; built by
 * inboundCallbackBody in src/server/delivery/callbacks/body.ts, whose test checks it against
 * this schema): the OpenAPI description's `webhooks.inboundMessage`.
 */
export const InboundCallbackEventSchema = z
  .object({
    /** Tells it from a status event (which has no `type`) at a URL that gets both. */
    type: z.literal('inbound'),
    /** The inbound message's id (GET /api/clients/{clientId}/inbound/{id}). */
    messageId: IdSchema,
    clientId: IdSchema,
    /** The sender's number. */
    from: z.string(),
    /** The client's number it was sent to. */
    to: z.string(),
    /** The text, parts of a concatenated message joined. */
    body: z.string(),
    /** The opt-out keyword group the body is (`UNSUBSCRIBE` is `STOP`); null for any other text. */
    keyword: z
      .enum(Object.keys(KEYWORD_GROUPS) as [Keyword, ...Keyword[]])
      .nullable(),
    /** When it was stored. */
    dateReceived: TimestampSchema,
  })
  .meta({
    id: 'InboundCallbackEvent',
    examples: [
      {
        type: 'inbound',
        messageId: '3f2a9c1e-7b4d-4e8f-a1c2-5d6e7f8a9b0c',
        clientId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        from: '447700900123',
        to: '447700900001',
        body: 'Yes, Thursday at 10 works for me',
        keyword: null,
        dateReceived: '2026-11-28T09:00:02.000Z',
      },
    ],
  });
export type InboundCallbackEvent = z.infer<typeof InboundCallbackEventSchema>;
