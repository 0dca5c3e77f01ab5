import type { Message } from '../../../shared/schemas/messages.ts';
import type { SmsEncoding } from '../../../shared/sms.ts';
import type { Queryable } from '../../db/client.ts';

interface MessageRow {
  id: string;
  client_id: string;
  sender: string;
  recipient: string;
  body: string;
  reference: string;
  state: string;
  encoding: SmsEncoding;
  segments: number;
  price: string;
  currency: string;
  date_created: Date;
  date_updated: Date;
}

const COLUMNS =
  'id, client_id, sender, recipient, body, reference, state, encoding, segments, price, currency, date_created, date_updated';

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    clientId: row.client_id,
    sender: row.sender,
    recipient: row.recipient,
    body: row.body,
    reference: row.reference,
    state: row.state,
    encoding: row.encoding,
    segments: row.segments,
    price: Number(row.price),
    currency: row.currency,
    dateCreated: row.date_created.toISOString(),
    dateUpdated: row.date_updated.toISOString(),
  };
}

export interface AcceptedSms {
  clientId: string;
  /** The client must belong to this user. */
  ownerId: string;
  actorUserId: string;
  sender: string;
  recipient: string;
  body: string;
  reference: string;
  encoding: SmsEncoding;
  segments: number;
  /** Decimal text. */
  price: string;
}

export type SendOutcome =
  | { kind: 'sent'; message: Message }
  | { kind: 'no-client' }
  | { kind: 'no-balance' };

/**
 * Debits the price, stores the message as ACCEPTED and appends the ledger row in one call of
 * `send_sms` (migrations/002-send-sms.sql): one statement, so one transaction. The debit is
 * conditional (`amount >= price`), so racing sends never overdraw; when no row comes back,
 * nothing was written, and a second look tells an unknown client from a short balance.
 */
export async function insertAcceptedMessage(
  q: Queryable,
  sms: AcceptedSms,
): Promise<SendOutcome> {
  const [row] = await q.query<MessageRow>(
    `SELECT ${COLUMNS} FROM send_sms($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      sms.clientId,
      sms.ownerId,
      sms.price,
      sms.sender,
      sms.recipient,
      sms.body,
      sms.reference,
      sms.encoding,
      sms.segments,
      sms.actorUserId,
    ],
  );
  if (row) return { kind: 'sent', message: toMessage(row) };
  const owned = await q.query(
    'SELECT 1 FROM clients WHERE id = $1 AND user_id = $2',
    [sms.clientId, sms.ownerId],
  );
  return owned.length > 0 ? { kind: 'no-balance' } : { kind: 'no-client' };
}
