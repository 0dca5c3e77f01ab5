import type { Price } from '../../../shared/schemas/prices.ts';
import { recordAudit } from '../../audit/record.ts';
import type { Actor } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/** An entry as the audit log keeps it: the prefix is the event's target. */
function audited(price: Price | undefined) {
  if (!price) return null;
  const { prefix: _prefix, ...fields } = price;
  return fields;
}

/** Creates or replaces the entry of a prefix; one `price.changed` event. */
export async function putPrice(
  deps: Deps,
  actor: Actor,
  prefix: string,
  input: {
    name: string;
    pricePerSegment: string;
    blocked?: boolean | undefined;
  },
): Promise<Price> {
  return deps.db.transaction(async (tx) => {
    const before = await repo.findPrice(tx, prefix, true);
    const after = await repo.upsertPrice(tx, {
      prefix,
      name: input.name,
      pricePerSegment: input.pricePerSegment,
      blocked: input.blocked ?? false,
    });
    await recordAudit(tx, {
      action: 'price.changed',
      actor,
      targetType: 'price',
      targetId: prefix,
      before: audited(before),
      after: audited(after),
    });
    return after;
  });
}

/** Deletes the entry of a prefix (404 when none); one `price.changed` event. */
export async function deletePrice(
  deps: Deps,
  actor: Actor,
  prefix: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await repo.deletePrice(tx, prefix);
    if (!before) throw notFound('Price');
    await recordAudit(tx, {
      action: 'price.changed',
      actor,
      targetType: 'price',
      targetId: prefix,
      before: audited(before),
      after: null,
    });
  });
}
