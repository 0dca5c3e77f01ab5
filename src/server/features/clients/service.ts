import {
  MAX_CLIENTS_MESSAGE,
  MAX_CLIENTS_PER_USER,
} from '../../../shared/limits.ts';
import type {
  Client,
  ClientWithSecret,
} from '../../../shared/schemas/clients.ts';
import { generateSecret, hashSecret } from '../../auth/passwords.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { conflict, notFound } from '../../errors.ts';
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
  _actor: Principal,
  input: { userId: string; name: string },
): Promise<ClientWithSecret> {
  const secret = generateSecret();
  const client = await deps.db.transaction(async (tx) => {
    const existing = await repo.lockUserAndCountClients(tx, input.userId);
    if (existing === undefined) throw notFound('User');
    if (existing >= MAX_CLIENTS_PER_USER) throw conflict(MAX_CLIENTS_MESSAGE);
    const created = await repo.insertClient(tx, {
      userId: input.userId,
      name: input.name,
      secretHash: hashSecret(secret),
    });
    await repo.insertDefaultBalance(tx, created.id, deps.config.currency);
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

export async function listClients(
  deps: Deps,
  filter: { userId?: string | undefined },
  page: { count: number; offset: number },
): Promise<{ clients: Client[]; total: number }> {
  return repo.listClients(deps.db, filter, page);
}

export async function renameClient(
  deps: Deps,
  _actor: Principal,
  clientId: string,
  name: string,
  ownerId?: string,
): Promise<Client> {
  const client = await repo.renameClient(deps.db, clientId, name, ownerId);
  if (!client) throw notFound('Client');
  return client;
}

/**
 * Replaces the secret; with `graceSeconds`, the replaced one keeps working that long (and a
 * secret replaced earlier stops at once). The cache is cleared either way: a replaced secret
 * in its grace is checked again, and then cached no longer than its grace.
 */
export async function resetSecret(
  deps: Deps,
  _actor: Principal,
  clientId: string,
  ownerId: string,
  graceSeconds = 0,
): Promise<ClientWithSecret> {
  const secret = generateSecret();
  const client = await repo.updateClientSecret(
    deps.db,
    clientId,
    hashSecret(secret),
    ownerId,
    graceSeconds,
  );
  if (!client) throw notFound('Client');
  deps.credentials.forget(clientId);
  return { ...client, secret };
}

export async function deleteClient(
  deps: Deps,
  _actor: Principal,
  clientId: string,
  ownerId: string,
): Promise<void> {
  if (!(await repo.deleteClient(deps.db, clientId, ownerId)))
    throw notFound('Client');
  deps.credentials.forget(clientId);
}
