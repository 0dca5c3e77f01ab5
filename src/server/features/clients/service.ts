import {
  MAX_CLIENTS_MESSAGE,
  MAX_CLIENTS_PER_USER,
} from '../../../shared/limits.ts';
import type { ClientWithSecret } from '../../../shared/schemas/clients.ts';
import { generateSecret, hashSecret } from '../../auth/passwords.ts';
import type { Deps } from '../../deps.ts';
import { conflict, notFound } from '../../errors.ts';
import { insertDefaultBalance } from '../balances/repo.ts';
import * as repo from './repo.ts';

/**
 * Creates a client with a fresh secret and a default balance at 0. The owner's row is locked
 * while counting, so concurrent creates cannot pass the limit of 30.
 */
export async function createClient(
  deps: Deps,
  userId: string,
  name: string,
): Promise<ClientWithSecret> {
  const secret = generateSecret();
  const client = await deps.db.transaction(async (tx) => {
    const existing = await repo.lockUserAndCountClients(tx, userId);
    if (existing === undefined) throw notFound('User');
    if (existing >= MAX_CLIENTS_PER_USER) throw conflict(MAX_CLIENTS_MESSAGE);
    const created = await repo.insertClient(tx, {
      userId,
      name,
      secretHash: hashSecret(secret),
    });
    await insertDefaultBalance(tx, created.id, deps.config.currency);
    return created;
  });
  return { ...client, secret };
}

export async function resetSecret(
  deps: Deps,
  clientId: string,
  userId: string,
): Promise<ClientWithSecret> {
  const secret = generateSecret();
  const client = await repo.updateClientSecret(
    deps.db,
    clientId,
    hashSecret(secret),
    userId,
  );
  if (!client) throw notFound('Client');
  deps.credentials.forget(clientId);
  return { ...client, secret };
}

export async function deleteClient(
  deps: Deps,
  clientId: string,
  userId: string,
): Promise<void> {
  if (!(await repo.deleteClient(deps.db, clientId, userId)))
    throw notFound('Client');
  deps.credentials.forget(clientId);
}
