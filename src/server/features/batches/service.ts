import {
  cleanRecipient,
  isNationalNumber,
  isValidRecipient,
} from '../../../shared/recipient.ts';
import { SMS_CREATE_ROLE } from '../../../shared/roles.ts';
import {
  MAX_LISTED_BAD_ENTRIES,
  type Batch,
  type BatchList,
  type CreatedBatch,
} from '../../../shared/schemas/campaigns.ts';
import { countSms } from '../../../shared/sms.ts';
import { checkClient } from '../../auth/client-access.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import {
  badRequest,
  destinationRefused,
  forbidden,
  notFound,
  optedOutRefused,
} from '../../errors.ts';
import { idempotencyClaim, sendRefused } from '../../idempotency.ts';
import * as repo from './repo.ts';

/** An entry as a refusal quotes it: JSON-quoted, long ones cut. */
function quoted(entry: string): string {
  const shown = entry.length > 40 ? `${entry.slice(0, 40)}…` : entry;
  return JSON.stringify(shown);
}

/** "3 (a), 17 (b)", at most MAX_LISTED_BAD_ENTRIES of them, then "and N more". */
function listed(entries: string[]): string {
  const shown = entries.slice(0, MAX_LISTED_BAD_ENTRIES).join(', ');
  const more = entries.length - MAX_LISTED_BAD_ENTRIES;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

/**
 * Recipients cleaned as the single send cleans them (src/shared/recipient.ts: `0033…` and
 * `33…` are one recipient), duplicates dropped (the first stays). A national number (400) is
 * refused after any malformed one. Any malformed entry refuses the whole batch (400), naming up to
 * MAX_LISTED_BAD_ENTRIES of them by their index in the request (from 0).
 */
export function checkRecipients(recipients: string[]): string[] {
  const bad: string[] = [];
  const national: string[] = [];
  const distinct = new Set<string>();
  recipients.forEach((entry, index) => {
    const cleaned = cleanRecipient(entry);
    if (isValidRecipient(cleaned)) distinct.add(cleaned);
    else if (isNationalNumber(cleaned)) {
      national.push(`${index} (${quoted(entry)})`);
    } else bad.push(`${index} (${quoted(entry)})`);
  });
  if (bad.length === 1) {
    throw badRequest(
      `Recipient ${bad[0]} is not a phone number of 6 to 15 digits`,
    );
  }
  if (bad.length > 1) {
    throw badRequest(
      `Recipients ${listed(bad)} are not phone numbers of 6 to 15 digits`,
    );
  }
  if (national.length === 1) {
    throw badRequest(
      `Recipient ${national[0]} is a national number (it begins with 0): give it with its country code`,
    );
  }
  if (national.length > 1) {
    throw badRequest(
      `Recipients ${listed(national)} are national numbers (they begin with 0): give them with their country code`,
    );
  }
  return [...distinct];
}

/** The 403 of a batch: every refused destination (up to the listed maximum) with its index. */
function refusedMessage(
  recipients: string[],
  indexOf: Map<string, number>,
  refused: repo.RefusedRecipient[],
): string {
  const entries = refused.map((r) => {
    const recipient = recipients[r.position]!;
    const where =
      r.prefix === null || r.refusal === 'opted-out'
        ? `+${recipient}`
        : `+${recipient}, ${r.name}, prefix ${r.prefix}`;
    const why =
      r.refusal === 'blocked'
        ? 'blocked'
        : r.refusal === 'opted-out'
          ? 'opted out'
          : 'not allowed for this client';
    return `${indexOf.get(recipient)} (${where}: ${why})`;
  });
  return `Sending to ${refused.length === 1 ? 'recipient' : 'recipients'} ${listed(entries)} is not allowed; nothing was sent`;
}

/**
 * Sends one body to a list of recipients from a client, all or nothing: malformed recipients
 * (400), refused destinations (403) or a total beyond the balance (402) charge and create
 * nothing. Otherwise one debit, and the batch, its messages, ledger rows and delivery jobs are
 * written in one transaction. Needs ROLE_SMS_CREATE, as the single send. With an idempotency key,
 * a repeat within 24 hours answers the first batch again (`replayed`) and charges nothing.
 */
export async function createBatch(
  deps: Deps,
  principal: Principal,
  clientId: string,
  input: {
    recipients: string[];
    body: string;
    sender?: string | undefined;
    sendAt?: string | undefined;
  },
  idempotencyKey?: string,
): Promise<{ batch: CreatedBatch; replayed: boolean }> {
  if (!principal.roles.includes(SMS_CREATE_ROLE)) {
    throw forbidden(`Sending SMS needs the role ${SMS_CREATE_ROLE}`);
  }
  const sender = input.sender ?? deps.config.branding.providerShortName;
  if ([sender, input.body].some((value) => value.includes('\u0000'))) {
    throw badRequest('Text must not contain NUL characters');
  }
  const recipients = checkRecipients(input.recipients);
  const sendAt = input.sendAt ? new Date(input.sendAt).toISOString() : null;
  const { encoding, segments } = countSms(input.body);
  const outcome = await repo.createBatch(deps.db, {
    clientId,
    ownerId: principal.user.id,
    actorUserId: principal.user.id,
    sender,
    body: input.body,
    encoding,
    segments,
    recipients,
    sendAt,
    defaultPrice: deps.config.smsPrice,
    idempotency: idempotencyClaim(idempotencyKey, {
      recipients,
      body: input.body,
      sender,
      sendAt,
    }),
  });
  switch (outcome.kind) {
    case 'no-client':
    case 'no-balance':
    case 'key-reused':
      throw sendRefused(outcome);
    case 'refused': {
      const indexOf = new Map<string, number>();
      input.recipients.forEach((entry, index) => {
        const cleaned = cleanRecipient(entry);
        if (!indexOf.has(cleaned)) indexOf.set(cleaned, index);
      });
      const message = refusedMessage(recipients, indexOf, outcome.refused);
      // One code for the batch: opted out when every refused recipient is; else the
      // destinations' (blocked only when every refused destination is).
      const destinations = outcome.refused.filter(
        (r) => r.refusal !== 'opted-out',
      );
      if (destinations.length === 0) throw optedOutRefused(message);
      throw destinationRefused(
        message,
        destinations.every((r) => r.refusal === 'blocked'),
      );
    }
  }
  if (!outcome.replayed) {
    if (sendAt === null) deps.deliveryWake.wake(outcome.batch.total);
    else deps.deliveryWake.count('SCHEDULED', outcome.batch.total);
  }
  return { batch: outcome.batch, replayed: outcome.replayed };
}

export async function listBatches(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  page: { count: number; offset: number },
): Promise<BatchList> {
  await checkClient(deps, clientId, ownerId);
  const { items, total } = await repo.listBatches(deps.db, clientId, page);
  return {
    total,
    // The page size, as every list answers it (the page may hold fewer).
    count: page.count,
    offset: page.offset,
    batches: items,
  };
}

export async function getBatch(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  batchId: string,
): Promise<Batch> {
  await checkClient(deps, clientId, ownerId);
  const batch = await repo.findBatch(deps.db, clientId, batchId);
  if (!batch) throw notFound('Batch');
  return batch;
}

/**
 * Cancels the batch's messages not yet taken by a provider, SCHEDULED or ACCEPTED and waiting
 * (each CANCELED and refunded exactly once, by cancel_untaken_messages: a message a worker holds
 * meanwhile is left to it) and answers the batch. Needs
 * ROLE_SMS_CREATE, as the send it undoes, and as a single message's cancel.
 */
export async function cancelBatch(
  deps: Deps,
  principal: Principal,
  clientId: string,
  batchId: string,
): Promise<Batch> {
  if (!principal.roles.includes(SMS_CREATE_ROLE)) {
    throw forbidden(`Cancelling an SMS needs the role ${SMS_CREATE_ROLE}`);
  }
  await getBatch(deps, clientId, principal.user.id, batchId);
  const canceled = await repo.cancelUntaken(deps.db, batchId);
  if (canceled > 0) deps.deliveryWake.count('CANCELED', canceled);
  return getBatch(deps, clientId, principal.user.id, batchId);
}
