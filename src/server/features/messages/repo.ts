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
 * Debits the price, stores the message as ACCEPTED and appends the ledger row in ONE statement.
 * The debit is conditional (`amount >= price`): PostgreSQL re-checks it on the newest row
 * version when sends race, so no interleaving can take a balance below zero, and when it fails
 * the dependent inserts see no row and nothing is written.
 */
export async function insertAcceptedMessage(
  q: Queryable,
  sms: AcceptedSms,
): Promise<SendOutcome> {
  const [row] = await q.query<
    { client_found: boolean } & {
      [K in keyof MessageRow]: MessageRow[K] | null;
    }
  >(
    `WITH client AS (
       SELECT id, user_id FROM clients WHERE id = $1::uuid AND user_id = $2::uuid
     ), debit AS (
       UPDATE balances b SET amount = b.amount - $3::numeric, date_updated = now()
       FROM client
       WHERE b.client_id = client.id AND b.amount >= $3::numeric
       RETURNING b.id, b.client_id, b.amount, b.currency, client.user_id
     ), message AS (
       INSERT INTO messages (client_id, user_id, sender, recipient, body, reference, state,
                             encoding, segments, price, currency)
       SELECT client_id, user_id, $4::text, $5::text, $6::text, $7::text, 'ACCEPTED',
              $8::text, $9::int, $3::numeric, currency
       FROM debit
       RETURNING ${COLUMNS}
     ), ledger AS (
       INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason,
                                   actor_user_id, message_id)
       SELECT debit.id, debit.client_id, -$3::numeric, debit.amount, 'SMS', $10::uuid, message.id
       FROM debit CROSS JOIN message
     )
     SELECT EXISTS (SELECT 1 FROM client) AS client_found, message.*
     FROM (SELECT 1) AS one LEFT JOIN message ON true`,
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
  if (!row?.client_found) return { kind: 'no-client' };
  if (row.id === null) return { kind: 'no-balance' };
  return { kind: 'sent', message: toMessage(row as MessageRow) };
}
