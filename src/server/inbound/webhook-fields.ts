/**
 * The HTTP providers' inbound webhooks (CONTRACT "Two-way messaging": Inbound from each
 * method), read into an InboundPart, or why not. Pure: the routes check who sent them (Vonage's
 * signature, the gateway's bearer token, as for receipts) and hand the part to the one writer.
 * Every field is checked before anything is stored (receipt-fields.ts, storable.ts): a bad one
 * is the caller's 400, never a failed write.
 */
import { z } from 'zod';
import { countSms } from '../../shared/sms.ts';
import { receiptIdProblem } from '../delivery/receipt-fields.ts';
import { storableInbound } from './storable.ts';
import type { InboundPart } from './types.ts';

/** The part to store, a message we take but do not store (`ignore`), or a 400's reason. */
export type ParsedInbound =
  { part: InboundPart } | { ignore: string } | { error: string };

/** Vonage's small integers as sent: digits only (a form's text or a JSON number's). */
const COUNT = /^[0-9]{1,5}$/;

function checked(part: InboundPart, what: string): ParsedInbound {
  const storable = storableInbound(part);
  if ('problem' in storable)
    return { error: `Invalid ${what}: ${storable.problem}` };
  return { part: storable.part };
}

/**
 * Vonage's inbound SMS webhook fields (GET query string, POST form or JSON, as vonageFields
 * reads them): `msisdn` the sender, `to` our number, `messageId`, `text`, `type` (`text`,
 * `unicode`; `binary` has no text: taken and not stored), and for a part of a long message
 * `concat` = "true" with `concat-ref`, `concat-total` and `concat-part`. `keyword`,
 * `message-timestamp`, `api-key`, `nonce` and the signature's fields are not ours to store.
 * https://developer.vonage.com/en/messaging/sms/guides/inbound-sms
 */
export function parseVonageInbound(
  fields: Record<string, string>,
): ParsedInbound {
  const what = 'Vonage inbound message';
  const type = (fields.type ?? 'text').trim().toLowerCase();
  if (type === 'binary') return { ignore: 'binary message' };
  if (type !== 'text' && type !== 'unicode') {
    return { error: `Invalid ${what}: type must be text, unicode or binary` };
  }
  const messageId = (fields.messageId ?? '').trim();
  const idProblem = receiptIdProblem('messageId', messageId);
  if (idProblem) return { error: `Invalid ${what}: ${idProblem}` };
  const from = fields.msisdn ?? '';
  if (from.trim() === '')
    return { error: `Invalid ${what}: msisdn is missing` };
  const to = fields.to ?? '';
  if (to.trim() === '') return { error: `Invalid ${what}: to is missing` };
  let concat: InboundPart['concat'] = null;
  if ((fields.concat ?? '').trim().toLowerCase() === 'true') {
    const numbers = (
      ['concat-ref', 'concat-total', 'concat-part'] as const
    ).map((name) => {
      const value = (fields[name] ?? '').trim();
      return COUNT.test(value) ? Number(value) : name;
    });
    const bad = numbers.find((n) => typeof n === 'string');
    if (bad !== undefined) {
      return {
        error: `Invalid ${what}: ${bad} must be a whole number with concat=true`,
      };
    }
    const [reference, total, part] = numbers as number[];
    concat = { reference: reference!, total: total!, part: part! };
  }
  return checked(
    {
      method: 'VONAGE_SMS',
      providerMessageId: messageId,
      from,
      to,
      body: fields.text ?? '',
      encoding: type === 'unicode' ? 'UCS-2' : 'GSM-7',
      concat,
    },
    what,
  );
}

const GatewayInboundSchema = z.object({
  id: z.union([
    z.string().trim(),
    z
      .number()
      .int()
      .transform((n) => String(n)),
  ]),
  from: z.string(),
  to: z.string(),
  text: z.string(),
});

/**
 * The generic gateway's inbound POST: JSON `{"id", "from", "to", "text"}` (CONTRACT). The
 * gateway says nothing of the coding: GSM-7 when every character is in its alphabet, else
 * UCS-2 (what a phone would have sent).
 */
export function parseGatewayInbound(body: unknown): ParsedInbound {
  const what = 'inbound message';
  const parsed = GatewayInboundSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'body';
    return {
      error: `Invalid ${what}: ${where}: ${issue?.message ?? 'invalid'} (expected {"id", "from", "to", "text"})`,
    };
  }
  const { id, from, to, text } = parsed.data;
  const idProblem = receiptIdProblem('id', id);
  if (idProblem) return { error: `Invalid ${what}: ${idProblem}` };
  return checked(
    {
      method: 'WORLD_SPECIAL',
      providerMessageId: id,
      from,
      to,
      body: text,
      encoding: countSms(text).encoding,
      concat: null,
    },
    what,
  );
}
