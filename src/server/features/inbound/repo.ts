import type {
  Conversation,
  ConversationItem,
  Direction,
  InboundMessage,
} from '../../../shared/schemas/inbound.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage, type Page } from '../../db/paging.ts';

interface InboundRow {
  id: string;
  client_id: string;
  from_number: string;
  to_number: string;
  body: string;
  encoding: InboundMessage['encoding'];
  segments: number;
  method: InboundMessage['method'];
  complete: boolean;
  keyword: InboundMessage['keyword'];
  date_received: Date | string;
}

const COLUMNS =
  'id, client_id, from_number, to_number, body, encoding, segments, method, complete, keyword, date_received';

const iso = (value: Date | string) => new Date(value).toISOString();

function toInbound(row: InboundRow): InboundMessage {
  return {
    id: row.id,
    clientId: row.client_id,
    from: row.from_number,
    to: row.to_number,
    body: row.body,
    encoding: row.encoding,
    segments: row.segments,
    method: row.method,
    complete: row.complete,
    keyword: row.keyword,
    dateReceived: iso(row.date_received),
  };
}

export interface InboundFilter {
  from?: string | undefined;
  to?: string | undefined;
  /** The first instant included. */
  since?: string | undefined;
  /** The first instant excluded. */
  before?: string | undefined;
}

/**
 * A client's inbound messages, newest first (ties by id), through inbound_messages_client_idx,
 * or inbound_messages_conversation_idx when `from` is given.
 */
export async function listInbound(
  q: Queryable,
  clientId: string,
  filter: InboundFilter,
  page: { count: number; offset: number },
): Promise<Page<InboundMessage>> {
  const params: unknown[] = [clientId];
  const conditions = ['client_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.from !== undefined) add('from_number = ?', filter.from);
  if (filter.to !== undefined) add('to_number = ?', filter.to);
  if (filter.since) add('date_received >= ?::timestamptz', filter.since);
  if (filter.before) add('date_received < ?::timestamptz', filter.before);
  return selectPage<InboundRow, InboundMessage>(
    q,
    {
      columns: COLUMNS,
      from: 'inbound_messages',
      where: conditions.join(' AND '),
      params,
      orderBy: 'date_received DESC, id DESC',
    },
    page,
    toInbound,
  );
}

export async function findInbound(
  q: Queryable,
  clientId: string,
  id: string,
): Promise<InboundMessage | undefined> {
  const [row] = await q.query<InboundRow>(
    `SELECT ${COLUMNS} FROM inbound_messages WHERE id = $1 AND client_id = $2`,
    [id, clientId],
  );
  return row ? toInbound(row) : undefined;
}

/**
 * A client's conversations: one per remote number, the senders of its inbound messages and the
 * recipients of its messages, each side counted in one pass over its conversation index
 * (client_id, number, date: an index-only scan, already grouped by number). Its cost grows with
 * what the client sent and received, never with the whole table.
 */
const ALL_CONVERSATIONS = `
  outbound AS (
    SELECT recipient AS number, count(*)::int AS n, max(date_created) AS last_at
    FROM messages WHERE client_id = $1 GROUP BY recipient
  ), inbound AS (
    SELECT from_number AS number, count(*)::int AS n, max(date_received) AS last_at
    FROM inbound_messages WHERE client_id = $1 GROUP BY from_number
  ), conversations AS (
    SELECT number, coalesce(i.n, 0) AS inbound_count, coalesce(o.n, 0) AS outbound_count,
      i.last_at AS inbound_at, o.last_at AS outbound_at,
      greatest(i.last_at, o.last_at) AS last_at
    FROM outbound o FULL JOIN inbound i USING (number)
  )`;

/**
 * Only the numbers that wrote to the client (an inbox): the inbound side grouped as above, and
 * the sent side counted for those numbers alone, one index range each. A client that sent a
 * million messages and heard back from a few hundred numbers reads a few hundred ranges.
 */
const INBOUND_CONVERSATIONS = `
  inbound AS (
    SELECT from_number AS number, count(*)::int AS n, max(date_received) AS last_at
    FROM inbound_messages WHERE client_id = $1 GROUP BY from_number
  ), conversations AS (
    SELECT i.number, i.n AS inbound_count, o.n AS outbound_count,
      i.last_at AS inbound_at, o.last_at AS outbound_at,
      greatest(i.last_at, o.last_at) AS last_at
    FROM inbound i CROSS JOIN LATERAL (
      SELECT count(*)::int AS n, max(date_created) AS last_at
      FROM messages WHERE client_id = $1 AND recipient = i.number
    ) o
  )`;

/**
 * The page of conversations: only its rows then look up their last body (one index probe each)
 * and opt-out (the optouts key). The last message is the later of the two sides; at the same
 * instant, the inbound one (the reply the client has not yet answered).
 */
const conversationPage = (sides: string) => `
  WITH ${sides}, page AS (
    SELECT *, (count(*) OVER ())::int AS total FROM conversations
    ORDER BY last_at DESC, number DESC LIMIT $2 OFFSET $3
  ), directed AS (
    SELECT page.*,
      CASE WHEN inbound_at >= outbound_at OR outbound_at IS NULL
        THEN 'inbound' ELSE 'outbound' END AS last_direction
    FROM page
  )
  SELECT number, inbound_count, outbound_count, last_at, last_direction, total,
    CASE WHEN last_direction = 'inbound' THEN (
      SELECT body FROM inbound_messages i
      WHERE i.client_id = $1 AND i.from_number = directed.number
      ORDER BY i.date_received DESC, i.id DESC LIMIT 1
    ) ELSE (
      SELECT body FROM messages m
      WHERE m.client_id = $1 AND m.recipient = directed.number
      ORDER BY m.date_created DESC, m.id DESC LIMIT 1
    ) END AS last_body,
    EXISTS (
      SELECT 1 FROM optouts WHERE client_id = $1 AND optouts.number = directed.number
    ) AS opted_out
  FROM directed
  ORDER BY last_at DESC, number DESC`;

const CONVERSATIONS = {
  all: conversationPage(ALL_CONVERSATIONS),
  inbound: conversationPage(INBOUND_CONVERSATIONS),
};

/** How many conversations, for a page past the end (it has no row to carry the count). */
const CONVERSATION_COUNT = {
  all: `
    SELECT count(*)::int AS n FROM (
      SELECT recipient FROM messages WHERE client_id = $1
      UNION
      SELECT from_number FROM inbound_messages WHERE client_id = $1
    ) numbers`,
  inbound: `
    SELECT count(DISTINCT from_number)::int AS n
    FROM inbound_messages WHERE client_id = $1`,
};

interface ConversationRow {
  number: string;
  inbound_count: number;
  outbound_count: number;
  last_at: Date | string;
  last_direction: Direction;
  last_body: string;
  opted_out: boolean;
  total: number;
}

/** `inboundOnly`: only the conversations of numbers that wrote to the client. */
export async function listConversations(
  q: Queryable,
  clientId: string,
  page: { count: number; offset: number },
  inboundOnly = false,
): Promise<Page<Conversation>> {
  const which = inboundOnly ? 'inbound' : 'all';
  const rows = await q.query<ConversationRow>(CONVERSATIONS[which], [
    clientId,
    page.count,
    page.offset,
  ]);
  const total =
    rows[0]?.total ??
    (await q.query<{ n: number }>(CONVERSATION_COUNT[which], [clientId]))[0]!.n;
  return {
    total,
    items: rows.map((row) => ({
      number: row.number,
      lastMessageAt: iso(row.last_at),
      lastBody: row.last_body,
      lastDirection: row.last_direction,
      inboundCount: row.inbound_count,
      outboundCount: row.outbound_count,
      optedOut: row.opted_out,
    })),
  };
}

interface ItemRow {
  direction: Direction;
  id: string;
  body: string;
  state: ConversationItem['state'];
  date: Date | string;
}

/**
 * One conversation, both directions, oldest first (ties by id): the client's messages to the
 * number and its inbound messages from it, each through its conversation index.
 */
export async function conversationItems(
  q: Queryable,
  clientId: string,
  number: string,
  page: { count: number; offset: number },
): Promise<Page<ConversationItem>> {
  return selectPage<ItemRow, ConversationItem>(
    q,
    {
      columns: 'direction, id, body, state, date',
      from: `(
        SELECT 'outbound' AS direction, id, body, state, date_created AS date
        FROM messages WHERE client_id = $1 AND recipient = $2
        UNION ALL
        SELECT 'inbound', id, body, 'RECEIVED', date_received
        FROM inbound_messages WHERE client_id = $1 AND from_number = $2
      ) thread`,
      where: 'true',
      params: [clientId, number],
      orderBy: 'date, id',
    },
    page,
    (row) => ({
      direction: row.direction,
      id: row.id,
      body: row.body,
      state: row.state,
      date: iso(row.date),
    }),
  );
}

/** Whether the number opted out of the client's messages (a keyword or the API). */
export async function isOptedOut(
  q: Queryable,
  clientId: string,
  number: string,
): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM optouts WHERE client_id = $1 AND number = $2',
    [clientId, number],
  );
  return rows.length > 0;
}
