import type { CancelReason } from '../../../shared/cancel-reasons.ts';
import type { Client, OwnClient } from '../../../shared/schemas/clients.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage } from '../../db/paging.ts';
import { asId, containsPattern } from '../../db/search.ts';

interface ClientRow {
  id: string;
  user_id: string;
  name: string;
  date_created: Date;
  date_updated: Date;
  secret_last_used_at: Date | null;
  allowed_prefixes: string[] | null;
  max_messages_per_second: number | null;
}

const COLUMNS =
  'id, user_id, name, date_created, date_updated, secret_last_used_at, allowed_prefixes, max_messages_per_second';

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    dateCreated: row.date_created.toISOString(),
    dateUpdated: row.date_updated.toISOString(),
    secretLastUsedAt: row.secret_last_used_at?.toISOString() ?? null,
    allowedPrefixes: row.allowed_prefixes,
    maxMessagesPerSecond: row.max_messages_per_second,
  };
}

/** Locks the owner's row so concurrent creates for one user are counted one at a time. */
export async function lockUserAndCountClients(
  q: Queryable,
  userId: string,
): Promise<number | undefined> {
  const locked = await q.query(
    'SELECT id FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (locked.length === 0) return undefined;
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM clients WHERE user_id = $1',
    [userId],
  );
  return row!.n;
}

export async function insertClient(
  q: Queryable,
  client: {
    userId: string;
    name: string;
    secretHash: string;
    maxMessagesPerSecond: number | null;
  },
): Promise<Client> {
  const [row] = await q.query<ClientRow>(
    `INSERT INTO clients (user_id, name, secret_hash, max_messages_per_second)
     VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [
      client.userId,
      client.name,
      client.secretHash,
      client.maxMessagesPerSecond,
    ],
  );
  return toClient(row!);
}

/** Sets what is given of a client's limits (undefined keeps, null clears). */
export async function setClientLimits(
  q: Queryable,
  id: string,
  limits: {
    allowedPrefixes?: string[] | null | undefined;
    maxMessagesPerSecond?: number | null | undefined;
  },
): Promise<Client | undefined> {
  const [row] = await q.query<ClientRow>(
    `UPDATE clients SET
       allowed_prefixes = CASE WHEN $2 THEN $3::text[] ELSE allowed_prefixes END,
       max_messages_per_second = CASE WHEN $4 THEN $5::int ELSE max_messages_per_second END,
       date_updated = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      limits.allowedPrefixes !== undefined,
      limits.allowedPrefixes ?? null,
      limits.maxMessagesPerSecond !== undefined,
      limits.maxMessagesPerSecond ?? null,
    ],
  );
  return row && toClient(row);
}

/**
 * A client by id; with `userId`, only if that user owns it. `forUpdate` locks the row until
 * the transaction ends, so a change's "before" stays true until it is written.
 */
export async function findClient(
  q: Queryable,
  id: string,
  userId?: string,
  forUpdate = false,
): Promise<Client | undefined> {
  const [row] = await q.query<ClientRow>(
    `SELECT ${COLUMNS} FROM clients WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)
     ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id, userId ?? null],
  );
  return row && toClient(row);
}

/**
 * A page of clients: one user's with `userId`; with `q`, those whose name holds it (any case)
 * or whose id it is (the trigram index of migrations/004 serves the name). Admin lists are
 * newest first; a customer's own list keeps the order the clients were made in.
 */
export async function listClients(
  q: Queryable,
  filter: { userId?: string | undefined; q?: string | undefined },
  page: { count: number; offset: number },
  order: 'oldest-first' | 'newest-first' = 'oldest-first',
): Promise<{ clients: Client[]; total: number }> {
  const search = filter.q;
  const { items, total } = await selectPage(
    q,
    {
      columns: COLUMNS,
      from: 'clients',
      where: `($1::uuid IS NULL OR user_id = $1)
        AND ($2::text IS NULL OR lower(name) LIKE $2 OR id = $3::uuid)`,
      params: [
        filter.userId ?? null,
        search ? containsPattern(search) : null,
        asId(search),
      ],
      orderBy:
        order === 'newest-first'
          ? 'date_created DESC, id DESC'
          : 'date_created, id',
    },
    page,
    toClient,
  );
  return { clients: items, total };
}

export async function renameClient(
  q: Queryable,
  id: string,
  name: string,
  userId?: string,
): Promise<Client | undefined> {
  const [row] = await q.query<ClientRow>(
    `UPDATE clients SET name = $2, date_updated = now()
     WHERE id = $1 AND ($3::uuid IS NULL OR user_id = $3) RETURNING ${COLUMNS}`,
    [id, name, userId ?? null],
  );
  return row && toClient(row);
}

/**
 * Every client gets a default balance at 0 whose id is the client's own id: a rule, written in
 * README (Accountability), that callers may rely on (`…/balances/{clientId}/freecredit`).
 */
export async function insertDefaultBalance(
  q: Queryable,
  clientId: string,
  currency: string,
): Promise<void> {
  await q.query(
    'INSERT INTO balances (id, client_id, currency) VALUES ($1, $1, $2)',
    [clientId, currency],
  );
}

/**
 * Replaces the secret. With a grace, the replaced secret keeps working that many seconds;
 * either way only that one is kept, so the grace of a secret replaced before ends now.
 */
export async function updateClientSecret(
  q: Queryable,
  id: string,
  secretHash: string,
  userId: string,
  graceSeconds = 0,
): Promise<Client | undefined> {
  const [row] = await q.query<ClientRow>(
    `UPDATE clients SET secret_hash = $2, date_updated = now(),
       previous_secret_hash = CASE WHEN $4::int > 0 THEN secret_hash END,
       previous_secret_expires_at =
         CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4::int) END
     WHERE id = $1 AND user_id = $3 RETURNING ${COLUMNS}`,
    [id, secretHash, userId, graceSeconds],
  );
  return row && toClient(row);
}

/** Deletes one of a user's clients; answers what was deleted, undefined when none was. */
export async function deleteClient(
  q: Queryable,
  id: string,
  userId: string,
): Promise<Client | undefined> {
  const [row] = await q.query<ClientRow>(
    `DELETE FROM clients WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
    [id, userId],
  );
  return row && toClient(row);
}

/** The owner's view: the client with its callback URLs and signing key. */
export async function findOwnClient(
  q: Queryable,
  id: string,
  userId: string,
  forUpdate = false,
): Promise<OwnClient | undefined> {
  const [row] = await q.query<
    ClientRow & {
      status_callback_url: string | null;
      status_callback_signing_key: string | null;
      inbound_callback_url: string | null;
    }
  >(
    `SELECT ${COLUMNS}, status_callback_url, status_callback_signing_key, inbound_callback_url
     FROM clients WHERE id = $1 AND user_id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id, userId],
  );
  return (
    row && {
      ...toClient(row),
      statusCallbackUrl: row.status_callback_url,
      statusCallbackSigningKey: row.status_callback_signing_key,
      inboundCallbackUrl: row.inbound_callback_url,
    }
  );
}

/** Replaces the signing key of a client that has one; false when it has none. */
export async function replaceSigningKey(
  q: Queryable,
  id: string,
  newKey: string,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE clients SET status_callback_signing_key = $2, date_updated = now()
     WHERE id = $1 AND status_callback_signing_key IS NOT NULL RETURNING id`,
    [id, newKey],
  );
  return rows.length > 0;
}

/** Sets (or with null removes) the callback URL; the key is set only when it has none yet. */
export async function setStatusCallback(
  q: Queryable,
  id: string,
  url: string | null,
  newKey: string,
): Promise<void> {
  await q.query(
    `UPDATE clients SET status_callback_url = $2,
       status_callback_signing_key = COALESCE(status_callback_signing_key,
                                              CASE WHEN $2::text IS NULL THEN NULL ELSE $3 END),
       date_updated = now()
     WHERE id = $1`,
    [id, url, newKey],
  );
}

/**
 * Sets (or with null removes) the inbound callback URL. It is signed with the status
 * callbacks' key, made here when the client has none yet (a client may want only inbound
 * callbacks).
 */
export async function setInboundCallback(
  q: Queryable,
  id: string,
  url: string | null,
  newKey: string,
): Promise<void> {
  await q.query(
    `UPDATE clients SET inbound_callback_url = $2,
       status_callback_signing_key = COALESCE(status_callback_signing_key,
                                              CASE WHEN $2::text IS NULL THEN NULL ELSE $3 END),
       date_updated = now()
     WHERE id = $1`,
    [id, url, newKey],
  );
}

/**
 * Stopping traffic: the client's messages (or one of its batches') not yet taken by a provider
 * become CANCELED with `reason` as their error, each refunded once (cancel_untaken_messages);
 * answers how many. The batch
 * must be the client's: another client's batch cancels nothing.
 */
export async function cancelUntakenMessages(
  q: Queryable,
  clientId: string,
  batchId: string | null,
  reason: CancelReason,
): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cancel_untaken_messages(ARRAY(
       SELECT id FROM messages
       WHERE client_id = $1 AND ($2::uuid IS NULL OR batch_id = $2::uuid)
         AND state IN ('SCHEDULED', 'ACCEPTED')), $3)`,
    [clientId, batchId, reason],
  );
  return row?.n ?? 0;
}
