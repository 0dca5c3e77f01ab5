import {
  parsePriceCsv,
  PRICE_CSV_HEADER,
  priceCsvLine,
} from '../../../shared/price-csv.ts';
import type { Price, PriceList } from '../../../shared/schemas/prices.ts';
import { recordAudit } from '../../audit/record.ts';
import type { Actor } from '../../auth/principal.ts';
import type { Queryable } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/** An entry as the audit log keeps it: the prefix is the event's target. */
function audited(price: Price | undefined) {
  if (!price) return null;
  const { prefix: _prefix, ...fields } = price;
  return fields;
}

/** The one `price.changed` event of a PUT or DELETE, in its transaction. */
async function recordChange(
  tx: Queryable,
  actor: Actor,
  prefix: string,
  before: Price | undefined,
  after: Price | undefined,
): Promise<void> {
  await recordAudit(tx, {
    action: 'price.changed',
    actor,
    targetType: 'price',
    targetId: prefix,
    before: audited(before),
    after: audited(after),
  });
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
    await recordChange(tx, actor, prefix, before, after);
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
    await recordChange(tx, actor, prefix, before, undefined);
  });
}

/** The list as customers and staff read it, with the currency and the default price. */
export async function listPrices(
  deps: Deps,
  search: string | undefined,
  page: { count: number; offset: number },
): Promise<PriceList> {
  const { prices, total } = await repo.listPrices(deps.db, search, page);
  return {
    currency: deps.config.currency,
    defaultPricePerSegment: Number(deps.config.smsPrice),
    total,
    ...page,
    prices,
  };
}

/** The whole list as CSV text: the header, then one line per entry by prefix. */
export async function priceCsv(deps: Deps): Promise<string> {
  const entries = await repo.allPrices(deps.db);
  return [PRICE_CSV_HEADER, ...entries.map(priceCsvLine)].join('\r\n') + '\r\n';
}

/**
 * Replaces the whole list with a CSV file's, in one transaction, audited as one
 * `price.imported` event that keeps the list it replaced (`before`, prices as exact decimal
 * text) so it can be rebuilt. A bad line answers 400 naming it, and nothing changes. A file
 * without entries (header only, or empty) would wipe every price and block: refused (400)
 * unless `allowEmpty` says that is meant.
 */
export async function importPrices(
  deps: Deps,
  actor: Actor,
  csv: string,
  allowEmpty = false,
): Promise<{ count: number }> {
  const blank = csv.replace(/^\uFEFF/, '').trim() === '';
  const parsed = blank
    ? ({ ok: true, entries: [] } as const)
    : parsePriceCsv(csv);
  if (!parsed.ok) throw badRequest(parsed.message);
  const count = parsed.entries.length;
  if (count === 0 && !allowEmpty) {
    throw badRequest(
      'The price list CSV has no entries: importing it would remove every price and block. Send allowEmpty=true in the query to empty the list',
    );
  }
  await deps.db.transaction(async (tx) => {
    const replaced = await repo.replacePrices(tx, parsed.entries);
    await recordAudit(tx, {
      action: 'price.imported',
      actor,
      targetType: 'price',
      targetId: null,
      before: { count: replaced.length, prices: replaced },
      after: { count },
    });
  });
  return { count };
}
