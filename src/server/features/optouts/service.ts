import { csvField } from '../../../shared/csv.ts';
import { SMS_CREATE_ROLE } from '../../../shared/roles.ts';
import {
  OPT_OUT_CSV_COLUMNS,
  type OptOut,
  type OptOutList,
} from '../../../shared/schemas/optouts.ts';
import { checkClient } from '../../auth/client-access.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/** The 409 of DELETE on a number that opted out by its own STOP. */
export const KEYWORD_OPT_OUT_KEPT =
  'This number opted out by replying STOP: only its own START ends that opt-out';

export async function listOptOuts(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  page: { count: number; offset: number },
): Promise<OptOutList> {
  await checkClient(deps, clientId, ownerId);
  const { items, total } = await repo.listOptOuts(deps.db, clientId, page);
  // The page size, as every list answers it (the page may hold fewer).
  return { total, count: page.count, offset: page.offset, optouts: items };
}

/** The client's opt-outs as CSV lines (header first); the client is checked before any line. */
export async function optOutsCsv(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
): Promise<AsyncGenerator<string>> {
  await checkClient(deps, clientId, ownerId);
  return csvLines(deps, clientId);
}

async function* csvLines(deps: Deps, clientId: string): AsyncGenerator<string> {
  yield `${OPT_OUT_CSV_COLUMNS.join(',')}\r\n`;
  let lines: string[] = [];
  for await (const optOut of repo.eachOptOut(deps.db, clientId)) {
    lines.push(
      `${OPT_OUT_CSV_COLUMNS.map((column) => csvField(optOut[column], { text: column === 'number' })).join(',')}\r\n`,
    );
    if (lines.length >= 500) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length > 0) yield lines.join('');
}

/** Opt-outs change who a client may send to: ROLE_SMS_CREATE, as sending does. */
function checkMaySend(principal: Principal, what: string): void {
  if (!principal.roles.includes(SMS_CREATE_ROLE)) {
    throw forbidden(`${what} needs the role ${SMS_CREATE_ROLE}`);
  }
}

/**
 * Opts a number out of the client's messages (source api; a keyword opt-out stays keyword):
 * every send to it is refused from the moment this commits, on every node, and its SCHEDULED
 * messages are CANCELED and refunded once. Idempotent: answers the opt-out as it is.
 */
export async function putOptOut(
  deps: Deps,
  principal: Principal,
  clientId: string,
  number: string,
): Promise<OptOut> {
  checkMaySend(principal, 'Opting a number out');
  await checkClient(deps, clientId, principal.user.id);
  const done = await repo.optOut(deps.db, clientId, number);
  // The client was deleted between the check and the write.
  if (!done) throw notFound('Client');
  if (done.taken) deps.optOutCount.add('api', 1);
  if (done.canceled > 0) deps.deliveryWake.count('CANCELED', done.canceled);
  return done.optOut;
}

/** Ends an api opt-out (204); a keyword one answers 409, a number not opted out 404. */
export async function deleteOptOut(
  deps: Deps,
  principal: Principal,
  clientId: string,
  number: string,
): Promise<void> {
  checkMaySend(principal, 'Ending an opt-out');
  await checkClient(deps, clientId, principal.user.id);
  const outcome = await repo.removeOptOut(deps.db, clientId, number);
  if (outcome === 'keyword') throw conflict(KEYWORD_OPT_OUT_KEPT);
  if (outcome === 'none') throw notFound('Opt-out');
}
