import type { DeliveryMethod } from '../../../shared/limits.ts';
import type {
  RouteSplit,
  RouteSplitWithShare,
} from '../../../shared/schemas/route-splits.ts';
import { changedFields, recordAudit } from '../../audit/record.ts';
import type { Actor } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/**
 * Creates a split for a user's client. An unknown user or client answers 404; a client of
 * another user answers 400, since both ids exist but do not go together.
 */
export async function createRouteSplit(
  deps: Deps,
  actor: Actor,
  split: {
    userId: string;
    clientId: string;
    deliveryMethod: DeliveryMethod;
    weight: number;
  },
): Promise<RouteSplit> {
  const created = await deps.db.transaction(async (tx) => {
    const row = await repo.insertRouteSplit(tx, split);
    if (row) {
      await recordAudit(tx, {
        action: 'route_split.created',
        actor,
        ...target(row),
        after: auditedFields(row),
      });
    }
    return row;
  });
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
  actor: Actor,
  id: string,
  change: { deliveryMethod: DeliveryMethod; weight: number },
): Promise<RouteSplit> {
  return deps.db.transaction(async (tx) => {
    const before = await repo.findRouteSplit(tx, id, { forUpdate: true });
    if (!before) throw notFound('Route split');
    const split = (await repo.updateRouteSplit(tx, id, change))!;
    const changed = changedFields(auditedFields(before), auditedFields(split), [
      'deliveryMethod',
      'weight',
    ]);
    if (changed) {
      await recordAudit(tx, {
        action: 'route_split.updated',
        actor,
        ...target(split),
        ...changed,
      });
    }
    return split;
  });
}

export async function deleteRouteSplit(
  deps: Deps,
  actor: Actor,
  id: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const deleted = await repo.deleteRouteSplit(tx, id);
    if (!deleted) throw notFound('Route split');
    await recordAudit(tx, {
      action: 'route_split.deleted',
      actor,
      ...target(deleted),
      before: auditedFields(deleted),
    });
  });
}

/** A split's change is recorded on its client (CONTRACT: targetType client). */
function target(split: RouteSplit) {
  return { targetType: 'client' as const, targetId: split.clientId };
}

function auditedFields(split: RouteSplit) {
  return {
    routeSplitId: split.id,
    deliveryMethod: split.deliveryMethod,
    weight: split.weight,
  };
}
