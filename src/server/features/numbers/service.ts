import type {
  ClientNumbers,
  NumberList,
  PhoneNumber,
} from '../../../shared/schemas/numbers.ts';
import { changedFields, recordAudit } from '../../audit/record.ts';
import { checkClient } from '../../auth/client-access.ts';
import type { Actor } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/** Every number, for staff: newest first, searched by `q`, or one client's. */
export async function listNumbers(
  deps: Deps,
  query: {
    q?: string | undefined;
    clientId?: string | undefined;
    count: number;
    offset: number;
  },
): Promise<NumberList> {
  const { q, clientId, count, offset } = query;
  const page = await repo.listNumbers(
    deps.db,
    { search: q, clientId },
    { count, offset },
  );
  return { total: page.total, count, offset, numbers: page.items };
}

/** A client's numbers: its owner's (ownerId) or, for staff (null), any client's. */
export async function clientNumbers(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
): Promise<ClientNumbers> {
  await checkClient(deps, clientId, ownerId);
  return { numbers: await repo.clientNumbers(deps.db, clientId) };
}

/** What the audit log keeps of a number: the number itself is the event's target. */
function audited(number: PhoneNumber) {
  return { clientId: number.clientId, helpText: number.helpText };
}

/**
 * Assigns a number to a client, creating it or moving it from its holder (who then no longer
 * lists it), with its help text (absent: none). One `number.assigned` event with what changed,
 * none when nothing did. Unknown client → 404.
 */
export async function assignNumber(
  deps: Deps,
  actor: Actor,
  number: string,
  input: { clientId: string; helpText?: string | null | undefined },
): Promise<PhoneNumber> {
  const wanted = {
    number,
    clientId: input.clientId,
    helpText: input.helpText ?? null,
  };
  return deps.db.transaction(async (tx) => {
    let before = await repo.lockNumber(tx, number);
    if (!before) {
      const created = await repo.insertNumber(tx, wanted);
      if (created) {
        await recordAudit(tx, {
          action: 'number.assigned',
          actor,
          targetType: 'number',
          targetId: number,
          before: null,
          after: audited(created),
        });
        return created;
      }
      // Either the client is unknown, or a concurrent call created the number first: wait
      // for it and update what it wrote, so the audit's `before` is what was replaced.
      before = await repo.lockNumber(tx, number);
      if (!before) throw notFound('Client');
    }
    const after = await repo.updateNumber(tx, wanted);
    if (!after) throw notFound('Client');
    const change = changedFields(audited(before), audited(after), [
      'clientId',
      'helpText',
    ]);
    if (change) {
      await recordAudit(tx, {
        action: 'number.assigned',
        actor,
        targetType: 'number',
        targetId: number,
        ...change,
      });
    }
    return after;
  });
}

/** Releases a number from its holder (404 when nobody holds it); one `number.released` event. */
export async function releaseNumber(
  deps: Deps,
  actor: Actor,
  number: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const released = await repo.releaseNumber(tx, number);
    if (!released) throw notFound('Number');
    await recordAudit(tx, {
      action: 'number.released',
      actor,
      targetType: 'number',
      targetId: number,
      before: audited(released),
      after: null,
    });
  });
}
