import type { DeliveryMethod } from '../../../shared/limits.ts';
import type {
  RouteSplit,
  RouteSplitWithShare,
} from '../../../shared/schemas/route-splits.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/**
 * Creates a split for a user's client. An unknown user or client answers 404; a client of
 * another user answers 400, since both ids exist but do not go together.
 */
export async function createRouteSplit(
  deps: Deps,
  _actor: Principal,
  split: {
    userId: string;
    clientId: string;
    deliveryMethod: DeliveryMethod;
    weight: number;
  },
): Promise<RouteSplit> {
  const created = await repo.insertRouteSplit(deps.db, split);
  if (created) return created;
  const missing = await repo.findMissingOwner(deps.db, split);
  if (missing === 'user') throw notFound('User');
  if (missing === 'client') throw notFound('Client');
  throw badRequest('The client does not belong to that user');
}

export async function getRouteSplit(
  deps: Deps,
  id: string,
): Promise<RouteSplit> {
  const split = await repo.findRouteSplit(deps.db, id);
  if (!split) throw notFound('Route split');
  return split;
}

export async function listRouteSplits(
  deps: Deps,
  filter: { userId?: string | undefined; clientId?: string | undefined },
  page: { count: number; offset: number },
): Promise<{ routes: RouteSplitWithShare[]; total: number }> {
  return repo.listRouteSplits(deps.db, filter, page);
}

export async function updateRouteSplit(
  deps: Deps,
  _actor: Principal,
  id: string,
  change: { deliveryMethod: DeliveryMethod; weight: number },
): Promise<RouteSplit> {
  const split = await repo.updateRouteSplit(deps.db, id, change);
  if (!split) throw notFound('Route split');
  return split;
}

export async function deleteRouteSplit(
  deps: Deps,
  _actor: Principal,
  id: string,
): Promise<void> {
  if (!(await repo.deleteRouteSplit(deps.db, id))) {
    throw notFound('Route split');
  }
}
