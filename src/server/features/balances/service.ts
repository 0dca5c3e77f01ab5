import type { Balance } from '../../../shared/schemas/balances.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { notFound, pgCode, unprocessable } from '../../errors.ts';
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

/** Adds free credit exactly (SQL numeric) and records the admin who granted it in the ledger. */
export async function grantFreeCredit(
  deps: Deps,
  actor: Principal,
  credit: { clientId: string; balanceId: string; amount: string },
): Promise<Balance> {
  try {
    const balance = await repo.creditBalance(deps.db, {
      ...credit,
      actorUserId: actor.user.id,
    });
    if (!balance) throw notFound('Balance');
    return balance;
  } catch (error) {
    if (pgCode(error) === NUMERIC_OVERFLOW) {
      throw unprocessable('The balance cannot grow that large');
    }
    throw error;
  }
}
