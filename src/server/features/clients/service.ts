import {
  MAX_CLIENTS_MESSAGE,
  MAX_CLIENTS_PER_USER,
} from '../../../shared/limits.ts';
import { randomBytes } from 'node:crypto';
import type {
  CanceledCount,
  Client,
  ClientWithSecret,
  OwnClient,
  RotatedSigningKey,
  StatusCallbackTest,
  UpdateOwnClientInput,
} from '../../../shared/schemas/clients.ts';
import { CANCEL_REASONS } from '../../../shared/cancel-reasons.ts';
import type { ClientLimitsInput } from '../../../shared/schemas/prices.ts';
import { generateSecret, hashSecret } from '../../auth/passwords.ts';
import { recordAudit } from '../../audit/record.ts';
import type { Actor } from '../../auth/principal.ts';
import type { Queryable } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import {
  callbackBody,
  postCallback,
  resolveCallbackTarget,
} from '../../delivery/index.ts';
import { badRequest, conflict, HttpError, notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/*
 * Every function takes the client's owner as `ownerId` when the caller is a customer (another
 * user's client then answers 404), and none when staff act on any client.
 */

/**
 * Creates a client with a fresh secret and a default balance at 0. The owner's row is locked
 * while counting, so concurrent creates cannot pass the limit of 30.
 */
export async function createClient(
  deps: Deps,
  actor: Actor,
  input: { userId: string; name: string },
): Promise<ClientWithSecret> {
  const secret = generateSecret();
  const client = await deps.db.transaction(async (tx) => {
    const existing = await repo.lockUserAndCountClients(tx, input.userId);
    if (existing === undefined) throw notFound('User');
    if (existing >= MAX_CLIENTS_PER_USER)
      throw conflict(MAX_CLIENTS_MESSAGE, 'client_limit_reached');
    const created = await repo.insertClient(tx, {
      userId: input.userId,
      name: input.name,
      secretHash: hashSecret(secret),
      maxMessagesPerSecond: deps.config.clientMaxMps,
    });
    await repo.insertDefaultBalance(tx, created.id, deps.config.currency);
    await recordAudit(tx, {
      action: 'client.created',
      actor,
      targetType: 'client',
      targetId: created.id,
      after: { name: created.name, userId: created.userId },
    });
    return created;
  });
  return { ...client, secret };
}

export async function getClient(
  deps: Deps,
  clientId: string,
  ownerId?: string,
): Promise<Client> {
  const client = await repo.findClient(deps.db, clientId, ownerId);
  if (!client) throw notFound('Client');
  return client;
}

/** The owner's view of a client: with its status callback URL and signing key. */
export async function getOwnClient(
  deps: Deps,
  clientId: string,
  ownerId: string,
): Promise<OwnClient> {
  const client = await repo.findOwnClient(deps.db, clientId, ownerId);
  if (!client) throw notFound('Client');
  return client;
}

/** How a client's callback targets are checked: the configured rules, its DNS turns. */
function targetOptions(deps: Deps, clientId: string) {
  return {
    allowPrivate: deps.config.delivery.statusCallbackAllowPrivate,
    dns: deps.config.delivery.statusCallbackDns,
    clientId,
  };
}

/** A fresh status-callback signing key. */
function newSigningKey(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * A callback URL as the audit log keeps it: its user name and password, query and fragment
 * may carry credentials of the receiver, so they show as `***`
 * (`https://***@hooks.example.com/sms?***`).
 */
export function redactCallbackUrl(url: string | null): string | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '***';
  }
  const userinfo = parsed.username || parsed.password ? '***@' : '';
  const query = parsed.search ? '?***' : '';
  const fragment = parsed.hash ? '#***' : '';
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query}${fragment}`;
}

/**
 * The owner's PUT: renames and/or sets the status and inbound callback URLs. A URL is refused
 * (400, naming its field) when it, or any address its name resolves to now, is loopback,
 * link-local or private (unless STATUS_CALLBACK_ALLOW_PRIVATE): the same rules for both kinds;
 * the sender checks again at each send, against DNS rebinding. The signing key (one for both
 * kinds) is made with the first URL and kept afterwards. Another user's client answers 404
 * before anything is resolved: nobody makes us look up names for a client that is not theirs.
 */
export async function updateOwnClient(
  deps: Deps,
  actor: Actor,
  clientId: string,
  ownerId: string,
  input: UpdateOwnClientInput,
): Promise<OwnClient> {
  const url = input.statusCallbackUrl;
  const inboundUrl = input.inboundCallbackUrl;
  if (url || inboundUrl) {
    if (!(await repo.findOwnClient(deps.db, clientId, ownerId))) {
      throw notFound('Client');
    }
    const checks = [
      url && { url, field: 'statusCallbackUrl' as const },
      inboundUrl && { url: inboundUrl, field: 'inboundCallbackUrl' as const },
    ].filter((check) => !!check);
    for (const check of checks) {
      const target = await resolveCallbackTarget(check.url, {
        ...targetOptions(deps, clientId),
        field: check.field,
      });
      if (!target.ok) throw badRequest(target.message);
    }
  }
  return deps.db.transaction(async (tx) => {
    const before = await repo.findOwnClient(tx, clientId, ownerId, true);
    if (!before) throw notFound('Client');
    if (input.name !== undefined && input.name !== before.name) {
      await repo.renameClient(tx, clientId, input.name, ownerId);
      await auditRename(tx, actor, clientId, before.name, input.name);
    }
    if (url !== undefined && url !== before.statusCallbackUrl) {
      await repo.setStatusCallback(tx, clientId, url, newSigningKey());
      await recordAudit(tx, {
        action: 'client.status_callback_changed',
        actor,
        targetType: 'client',
        targetId: clientId,
        before: {
          statusCallbackUrl: redactCallbackUrl(before.statusCallbackUrl),
        },
        after: { statusCallbackUrl: redactCallbackUrl(url) },
      });
    }
    if (inboundUrl !== undefined && inboundUrl !== before.inboundCallbackUrl) {
      await repo.setInboundCallback(tx, clientId, inboundUrl, newSigningKey());
      await recordAudit(tx, {
        action: 'client.inbound_callback_changed',
        actor,
        targetType: 'client',
        targetId: clientId,
        before: {
          inboundCallbackUrl: redactCallbackUrl(before.inboundCallbackUrl),
        },
        after: { inboundCallbackUrl: redactCallbackUrl(inboundUrl) },
      });
    }
    const after = await repo.findOwnClient(tx, clientId, ownerId);
    if (!after) throw notFound('Client');
    return after;
  });
}

/** The messageId of test events: no message has it, so a receiver can tell them apart. */
export const TEST_EVENT_MESSAGE_ID = '00000000-0000-0000-0000-000000000000';

/** "Send test event" calls a minute per client (each may cost a DNS lookup and a 10 s wait). */
export const TEST_EVENTS_PER_MINUTE = 10;

/**
 * "Send test event": one signed event in the contract's format, POSTed now (same target checks
 * and timeout as real ones, no retry), and what the receiver answered. Changes nothing. At most
 * TEST_EVENTS_PER_MINUTE a minute per client (per node): beyond, 429 with Retry-After.
 */
export async function sendTestCallback(
  deps: Deps,
  clientId: string,
  ownerId: string,
): Promise<StatusCallbackTest> {
  const client = await repo.findOwnClient(deps.db, clientId, ownerId);
  if (!client) throw notFound('Client');
  if (!client.statusCallbackUrl || !client.statusCallbackSigningKey) {
    throw badRequest('Set a status callback URL first');
  }
  const wait = deps.callbackTests.take([
    { key: clientId, limit: TEST_EVENTS_PER_MINUTE },
  ]);
  if (wait > 0) {
    throw new HttpError(
      429,
      `At most ${TEST_EVENTS_PER_MINUTE} test events a minute. Try again later.`,
      { 'retry-after': String(wait) },
    );
  }
  const result = await postCallback(
    client.statusCallbackUrl,
    callbackBody({
      messageId: TEST_EVENT_MESSAGE_ID,
      clientId,
      reference: 'test',
      state: 'DELIVERED',
      deliveryMethod: null,
      error: null,
      dateUpdated: new Date(),
      simulated: false,
    }),
    client.statusCallbackSigningKey,
    targetOptions(deps, clientId),
  );
  return {
    ok: result.ok,
    status: result.status ?? null,
    error: result.ok ? null : (result.error ?? 'failed'),
    durationMs: result.durationMs,
  };
}

/**
 * Replaces the status-callback signing key (the owner only): every callback signed from now on
 * uses the new one, since the worker reads the key at each try. The key is never audited. A
 * client that never had a callback URL has no key to rotate (400).
 */
export async function rotateSigningKey(
  deps: Deps,
  actor: Actor,
  clientId: string,
  ownerId: string,
): Promise<RotatedSigningKey> {
  const key = newSigningKey();
  await deps.db.transaction(async (tx) => {
    if (!(await repo.findOwnClient(tx, clientId, ownerId, true))) {
      throw notFound('Client');
    }
    if (!(await repo.replaceSigningKey(tx, clientId, key))) {
      throw badRequest('Set a status callback URL first');
    }
    await recordAudit(tx, {
      action: 'client.signing_key_rotated',
      actor,
      targetType: 'client',
      targetId: clientId,
    });
  });
  return { statusCallbackSigningKey: key };
}

/** A customer's own clients, in the order they were made. */
export async function listClients(
  deps: Deps,
  filter: { userId: string },
  page: { count: number; offset: number },
): Promise<{ clients: Client[]; total: number }> {
  return repo.listClients(deps.db, filter, page);
}

/** Staff's list: every client or one user's, searched by `q`, newest first. */
export async function searchClients(
  deps: Deps,
  filter: { userId?: string | undefined; q?: string | undefined },
  page: { count: number; offset: number },
): Promise<{ clients: Client[]; total: number }> {
  return repo.listClients(deps.db, filter, page, 'newest-first');
}

export async function renameClient(
  deps: Deps,
  actor: Actor,
  clientId: string,
  name: string,
  ownerId?: string,
): Promise<Client> {
  return deps.db.transaction(async (tx) => {
    const before = await repo.findClient(tx, clientId, ownerId, true);
    if (!before) throw notFound('Client');
    const client = await repo.renameClient(tx, clientId, name, ownerId);
    if (!client) throw notFound('Client');
    if (before.name !== client.name) {
      await auditRename(tx, actor, clientId, before.name, client.name);
    }
    return client;
  });
}

/**
 * Staff set the destinations a client may reach and its messages a second (each given field
 * replaces, null clears); audited with before and after when anything changed. The send reads
 * them in its own statement, so every node applies them from the next send on.
 */
export async function setClientLimits(
  deps: Deps,
  actor: Actor,
  clientId: string,
  limits: ClientLimitsInput,
): Promise<Client> {
  const allowedPrefixes =
    limits.allowedPrefixes && [...new Set(limits.allowedPrefixes)].sort();
  return deps.db.transaction(async (tx) => {
    const before = await repo.findClient(tx, clientId, undefined, true);
    if (!before) throw notFound('Client');
    const client = await repo.setClientLimits(tx, clientId, {
      allowedPrefixes,
      maxMessagesPerSecond: limits.maxMessagesPerSecond,
    });
    if (!client) throw notFound('Client');
    const limitsOf = (c: Client) => ({
      allowedPrefixes: c.allowedPrefixes,
      maxMessagesPerSecond: c.maxMessagesPerSecond,
    });
    if (JSON.stringify(limitsOf(before)) !== JSON.stringify(limitsOf(client))) {
      await recordAudit(tx, {
        action: 'client.limits_changed',
        actor,
        targetType: 'client',
        targetId: clientId,
        before: limitsOf(before),
        after: limitsOf(client),
      });
    }
    return client;
  });
}

/** The one audit event of a rename, whether the owner or staff renamed the client. */
function auditRename(
  tx: Queryable,
  actor: Actor,
  clientId: string,
  from: string,
  to: string,
): Promise<string> {
  return recordAudit(tx, {
    action: 'client.renamed',
    actor,
    targetType: 'client',
    targetId: clientId,
    before: { name: from },
    after: { name: to },
  });
}

/**
 * Replaces the secret; with `graceSeconds`, the replaced one keeps working that long (and a
 * secret replaced earlier stops at once). The cache is cleared either way: a replaced secret
 * in its grace is checked again, and then cached no longer than its grace.
 */
export async function resetSecret(
  deps: Deps,
  actor: Actor,
  clientId: string,
  ownerId: string,
  graceSeconds = 0,
): Promise<ClientWithSecret> {
  const secret = generateSecret();
  const client = await deps.db.transaction(async (tx) => {
    const updated = await repo.updateClientSecret(
      tx,
      clientId,
      hashSecret(secret),
      ownerId,
      graceSeconds,
    );
    if (!updated) throw notFound('Client');
    await recordAudit(tx, {
      action: 'client.secret_reset',
      actor,
      targetType: 'client',
      targetId: clientId,
      after: { graceSeconds },
    });
    return updated;
  });
  deps.credentials.forget(clientId);
  return { ...client, secret };
}

export async function deleteClient(
  deps: Deps,
  actor: Actor,
  clientId: string,
  ownerId: string,
): Promise<void> {
  const canceled = await deps.db.transaction(async (tx) => {
    if (!(await repo.findClient(tx, clientId, ownerId, true))) {
      throw notFound('Client');
    }
    // Its messages not yet taken by a provider are cancelled and refunded first, while its
    // balance still exists (CONTRACT "Stopping traffic").
    const n = await repo.cancelUntakenMessages(
      tx,
      clientId,
      null,
      CANCEL_REASONS.clientDeleted,
    );
    const deleted = await repo.deleteClient(tx, clientId, ownerId);
    if (!deleted) throw notFound('Client');
    await recordAudit(tx, {
      action: 'client.deleted',
      actor,
      targetType: 'client',
      targetId: clientId,
      before: { name: deleted.name, userId: deleted.userId },
    });
    return n;
  });
  if (canceled > 0) deps.deliveryWake.count('CANCELED', canceled);
  deps.credentials.forget(clientId);
}

/**
 * Staff stop a client's traffic: every message of the client (or of its batch `batchId`) not yet
 * taken by a provider becomes CANCELED, each refunded once; a message a worker holds at that
 * moment is left to it (cancel_untaken_messages). Audited as client.messages_canceled.
 */
export async function cancelClientMessages(
  deps: Deps,
  actor: Actor,
  clientId: string,
  batchId: string | null,
): Promise<CanceledCount> {
  const canceled = await deps.db.transaction(async (tx) => {
    const client = await repo.findClient(tx, clientId, undefined, true);
    if (!client) throw notFound('Client');
    if (batchId !== null) {
      const [batch] = await tx.query(
        'SELECT 1 FROM batches WHERE id = $1 AND client_id = $2',
        [batchId, clientId],
      );
      if (!batch) throw notFound('Batch');
    }
    const n = await repo.cancelUntakenMessages(
      tx,
      clientId,
      batchId,
      CANCEL_REASONS.staff,
    );
    await recordAudit(tx, {
      action: 'client.messages_canceled',
      actor,
      targetType: 'client',
      targetId: clientId,
      after: { canceled: n, batchId },
    });
    return n;
  });
  if (canceled > 0) deps.deliveryWake.count('CANCELED', canceled);
  return { canceled };
}
