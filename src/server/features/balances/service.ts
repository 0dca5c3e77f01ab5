import {
  DEFAULT_USAGE_DAYS,
  MAX_USAGE_DAYS,
  type Balance,
  type LedgerEntry,
  type LedgerKind,
  type Usage,
} from '../../../shared/schemas/balances.ts';
import {
  dateOf,
  endOf,
  startOf,
  type DateOrTime,
} from '../../../shared/schemas/periods.ts';
import { changedFields, recordAudit } from '../../audit/record.ts';
import type { Actor } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound, pgCode, unprocessable } from '../../errors.ts';
import { csvField } from '../../../shared/csv.ts';
import * as repo from './repo.ts';

/** PostgreSQL's numeric_value_out_of_range: the sum no longer fits numeric(15,4). */
const NUMERIC_OVERFLOW = '22003';

/** A client's default balance; with `ownerId`, only if that user owns the client. */
export async function getDefaultBalance(
  deps: Deps,
  clientId: string,
  ownerId?: string,
): Promise<Balance> {
  const balance = await repo.findDefaultBalance(deps.db, clientId, ownerId);
  if (!balance) throw notFound('Balance');
  return balance;
}

/**
 * Adds free credit exactly (SQL numeric), records the admin and their reason in the ledger,
 * and the grant in the audit log, in one transaction.
 */
export async function grantFreeCredit(
  deps: Deps,
  actor: Actor,
  credit: {
    clientId: string;
    balanceId: string;
    amount: string;
    reason: string | null;
  },
): Promise<Balance> {
  try {
    return await deps.db.transaction(async (tx) => {
      const done = await repo.creditBalance(tx, {
        ...credit,
        actorUserId: actor.user.id,
      });
      if (!done) throw notFound('Balance');
      await recordAudit(tx, {
        action: 'credit.granted',
        actor,
        targetType: 'client',
        targetId: credit.clientId,
        before: { amount: done.amountBefore },
        after: {
          amount: done.balance.amount,
          credit: Number(credit.amount),
          ...(credit.reason ? { reason: credit.reason } : {}),
        },
      });
      return done.balance;
    });
  } catch (error) {
    if (pgCode(error) === NUMERIC_OVERFLOW) {
      throw unprocessable('The balance cannot grow that large');
    }
    throw error;
  }
}

/** Sets the low-balance warning level (staff), audited when it changes. */
export async function setThreshold(
  deps: Deps,
  actor: Actor,
  change: { clientId: string; balanceId: string; minThreshold: string },
): Promise<Balance> {
  return deps.db.transaction(async (tx) => {
    const done = await repo.updateThreshold(tx, change);
    if (!done) throw notFound('Balance');
    const diff = changedFields(
      { minThreshold: done.thresholdBefore },
      { minThreshold: done.balance.minThreshold },
      ['minThreshold'],
    );
    if (diff) {
      await recordAudit(tx, {
        action: 'balance.threshold_changed',
        actor,
        targetType: 'client',
        targetId: change.clientId,
        ...diff,
      });
    }
    return done.balance;
  });
}

export interface LedgerQuery {
  kind?: LedgerKind | undefined;
  since?: DateOrTime | undefined;
  until?: DateOrTime | undefined;
}

function ledgerFilter(query: LedgerQuery): repo.LedgerFilter {
  const filter = {
    kind: query.kind,
    since: query.since && startOf(query.since),
    before: query.until && endOf(query.until),
  };
  if (filter.since && filter.before && filter.since >= filter.before) {
    throw badRequest('since must be before until');
  }
  return filter;
}

/** One page of a client's ledger, newest first; with `ownerId`, only if that user owns it. */
export async function getLedger(
  deps: Deps,
  clientId: string,
  ownerId: string,
  query: LedgerQuery,
  page: { count: number; offset: number },
): Promise<{ entries: LedgerEntry[]; total: number }> {
  const filter = ledgerFilter(query);
  const balance = await getDefaultBalance(deps, clientId, ownerId);
  return repo.listLedger(deps.db, balance.id, filter, page);
}

const CSV_BATCH = 1000;
const CSV_HEADER =
  'id,date,kind,amount,balanceAfter,reason,messageId,recipient,segments,pricePerSegment,pricePrefix\n';

function csvLine(entry: LedgerEntry): string {
  return (
    [
      csvField(entry.id),
      csvField(entry.dateCreated),
      csvField(entry.kind),
      csvField(entry.amount),
      csvField(entry.balanceAfter),
      csvField(entry.reason, { text: true }),
      csvField(entry.messageId),
      csvField(entry.recipient),
      csvField(entry.segments),
      csvField(entry.pricePerSegment),
      csvField(entry.pricePrefix),
    ].join(',') + '\n'
  );
}

/**
 * The whole (filtered) ledger as CSV, newest first, produced a batch at a time so a long
 * ledger is streamed rather than held in memory. Ownership is checked before the first line.
 */
export async function ledgerCsv(
  deps: Deps,
  clientId: string,
  ownerId: string,
  query: LedgerQuery,
): Promise<AsyncIterable<string>> {
  const filter = ledgerFilter(query);
  const balance = await getDefaultBalance(deps, clientId, ownerId);
  return (async function* lines() {
    yield CSV_HEADER;
    let beforeId: string | null = null;
    for (;;) {
      const batch = await repo.ledgerBatch(
        deps.db,
        balance.id,
        filter,
        beforeId,
        CSV_BATCH,
      );
      if (batch.length > 0) yield batch.map(csvLine).join('');
      if (batch.length < CSV_BATCH) return;
      beforeId = batch[batch.length - 1]!.id;
    }
  })();
}

const DAY_MS = 86_400_000;

/**
 * Usage per UTC day between `since` and `until` (default: the last 30 days, today included).
 * Every day of the range is listed; at most a year and a day of them.
 */
export async function getUsage(
  deps: Deps,
  clientId: string,
  ownerId: string,
  query: { since?: DateOrTime | undefined; until?: DateOrTime | undefined },
  now = new Date(),
): Promise<Usage> {
  const today = now.toISOString().slice(0, 10);
  const until: DateOrTime = query.until ?? { kind: 'date', date: today };
  const lastDay = dateOf(until);
  const defaultFirst = new Date(
    Date.parse(`${lastDay}T00:00:00Z`) - (DEFAULT_USAGE_DAYS - 1) * DAY_MS,
  )
    .toISOString()
    .slice(0, 10);
  const since: DateOrTime = query.since ?? { kind: 'date', date: defaultFirst };
  const firstDay = dateOf(since);
  const days =
    (Date.parse(`${lastDay}T00:00:00Z`) - Date.parse(`${firstDay}T00:00:00Z`)) /
      DAY_MS +
    1;
  if (days < 1 || startOf(since) >= endOf(until)) {
    throw badRequest('since must be before until');
  }
  if (days > MAX_USAGE_DAYS) {
    throw badRequest(`The period is at most ${MAX_USAGE_DAYS} days`);
  }
  const balance = await getDefaultBalance(deps, clientId, ownerId);
  return {
    days: await repo.usagePerDay(deps.db, balance.id, {
      firstDay,
      lastDay,
      since: startOf(since),
      before: endOf(until),
    }),
  };
}
