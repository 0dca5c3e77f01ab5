import { SMS_CREATE_ROLE } from '../../../shared/roles.ts';
import type {
  MessageDetail,
  MessageFilter,
  MessageList,
} from '../../../shared/schemas/messages.ts';
import type { Quote } from '../../../shared/schemas/prices.ts';
import { countSms } from '../../../shared/sms.ts';
import { checkClient } from '../../auth/client-access.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import {
  badRequest,
  conflict,
  destinationRefused,
  forbidden,
  type HttpError,
  notFound,
  optedOutRefused,
  rateLimited,
} from '../../errors.ts';
import { csvField } from '../../../shared/csv.ts';
import { idempotencyClaim, sendRefused } from '../../idempotency.ts';
import * as repo from './repo.ts';

/** The 409 of a cancel: only a SCHEDULED message can be cancelled. */
export const notScheduled = (state: string) =>
  `Only a scheduled message can be cancelled; this message is ${state}`;

/**
 * Why a destination is refused, in words naming it: the same text for the send's 403 and the
 * quote's `reason`.
 */
export function refusalReason(
  recipient: string,
  refusal: 'blocked' | 'not-allowed',
  destination: repo.Destination,
): string {
  const named =
    destination.prefix === null
      ? `+${recipient}`
      : `+${recipient} (${destination.name}, prefix ${destination.prefix})`;
  return refusal === 'blocked'
    ? `Sending to ${named} is not allowed: this destination is blocked`
    : `Sending to ${named} is not allowed for this client`;
}

/** Why a send to an opted-out recipient is refused: the send's 403 and the quote's `reason`. */
export function optedOutReason(recipient: string): string {
  return `Sending to +${recipient} is not allowed: the recipient opted out of this client's messages`;
}

export function throttled(retryAfterSeconds: number): HttpError {
  return rateLimited(
    `This client is sending more messages a second than its limit allows. Try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`,
    retryAfterSeconds,
  );
}

/**
 * Sends an SMS from a client: amount = segments × the recipient's price per segment (the price
 * list's longest matching prefix, else SMS_PRICE), rounded to the balance's scale, all computed
 * exactly by the database (migrations/functions/price_sms.sql). A blocked destination, or one outside the
 * client's allowed prefixes, is refused (403); a client beyond its messages a second too (429).
 * Needs ROLE_SMS_CREATE held by the caller (for an API client, by its owner). With an
 * idempotency key, a repeat of the same request within 24 hours answers the first message
 * again (`replayed`) and charges nothing; the same key with another request is refused (422).
 * With `sendAt` (validated by the schema) the message is charged and counted against the
 * client's messages a second now, and held SCHEDULED until then (CONTRACT "Campaigns").
 * Answers the Message as its JSON text (the 201's body).
 */
export async function sendSms(
  deps: Deps,
  principal: Principal,
  clientId: string,
  input: {
    sender: string;
    recipient: string;
    body: string;
    reference: string;
    sendAt?: string;
  },
  idempotencyKey?: string,
): Promise<{ answer: string; replayed: boolean }> {
  if (!principal.roles.includes(SMS_CREATE_ROLE)) {
    throw forbidden(`Sending SMS needs the role ${SMS_CREATE_ROLE}`);
  }
  // Refused here rather than by the database: sends are written in batches, and one text
  // PostgreSQL cannot store would fail the whole batch.
  const texts = [input.sender, input.recipient, input.body, input.reference];
  if (texts.some((value) => value.includes('\u0000'))) {
    throw badRequest('Text must not contain NUL characters');
  }
  if (texts.some((value) => !value.isWellFormed())) {
    throw badRequest('Text must be valid Unicode (a lone surrogate was found)');
  }
  const { encoding, segments } = countSms(input.body);
  const outcome = await repo.insertAcceptedMessage(deps.db, {
    ...input,
    clientId,
    ownerId: principal.user.id,
    actorUserId: principal.user.id,
    encoding,
    segments,
    defaultPrice: deps.config.smsPrice,
    idempotency: idempotencyClaim(idempotencyKey, input),
  });
  switch (outcome.kind) {
    case 'no-client':
    case 'no-balance':
    case 'key-reused':
      throw sendRefused(outcome);
    case 'blocked':
    case 'not-allowed':
      throw destinationRefused(
        refusalReason(input.recipient, outcome.kind, outcome.destination),
        outcome.kind === 'blocked',
      );
    case 'throttled':
      throw throttled(outcome.retryAfterSeconds);
    case 'opted-out':
      throw optedOutRefused(optedOutReason(input.recipient));
    case 'replied':
      // Only a keyword's auto-reply names the inbound message it answers.
      throw new Error(
        'send_sms_batch answered replied to a send that is no reply',
      );
  }
  if (!outcome.replayed) {
    // A scheduled send (SCHEDULED) has nothing to deliver now: its job starts at sendAt.
    if (input.sendAt) {
      deps.deliveryWake.count('SCHEDULED');
    } else {
      deps.deliveryWake.wake();
    }
  }
  return { answer: outcome.answer, replayed: outcome.replayed };
}

/**
 * Cancels a scheduled message of the caller's client: CANCELED and its price refunded through
 * the ledger, exactly once however many cancels race, and never once its release has begun
 * (cancel_messages). Needs ROLE_SMS_CREATE, as the send it undoes. Unknown client or message →
 * 404; any state but SCHEDULED → 409. Answers the message as its JSON text (message_json).
 */
export async function cancelMessage(
  deps: Deps,
  principal: Principal,
  clientId: string,
  messageId: string,
): Promise<string> {
  if (!principal.roles.includes(SMS_CREATE_ROLE)) {
    throw forbidden(`Cancelling an SMS needs the role ${SMS_CREATE_ROLE}`);
  }
  await checkClient(deps, clientId, principal.user.id);
  if (!(await repo.getMessage(deps.db, clientId, messageId))) {
    throw notFound('Message');
  }
  const canceled = await repo.cancelMessage(deps.db, messageId);
  if (!canceled) {
    const message = (await repo.getMessage(deps.db, clientId, messageId))!;
    throw conflict(notScheduled(message.state), 'not_cancelable');
  }
  deps.deliveryWake.count('CANCELED');
  return (await repo.messageAnswer(deps.db, clientId, messageId))!;
}

/**
 * What sending `body` to `recipient` (both validated as a send's) from this client would cost
 * and whether the client may, priced by the same SQL as the send. Unknown client → 404.
 */
export async function quoteSms(
  deps: Deps,
  principal: Principal,
  clientId: string,
  input: { recipient: string; body: string },
): Promise<Quote> {
  const { encoding, segments } = countSms(input.body);
  const priced = await repo.priceSms(deps.db, {
    clientId,
    ownerId: principal.user.id,
    recipient: input.recipient,
    segments,
    defaultPrice: deps.config.smsPrice,
  });
  if (!priced) throw notFound('Client');
  return {
    recipient: input.recipient,
    pricePrefix: priced.pricePrefix,
    pricePerSegment: Number(priced.pricePerSegment),
    encoding,
    segments,
    amount: Number(priced.amount),
    allowed: priced.refusal === null,
    reason:
      priced.refusal === null
        ? null
        : priced.refusal === 'opted-out'
          ? optedOutReason(input.recipient)
          : refusalReason(input.recipient, priced.refusal, {
              prefix: priced.pricePrefix,
              name: priced.priceName,
            }),
  };
}

export async function listMessages(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  query: MessageFilter & { count: number; offset: number },
): Promise<MessageList> {
  await checkClient(deps, clientId, ownerId);
  const { count, offset, ...filter } = query;
  const page = await repo.listMessages(deps.db, clientId, filter, {
    count,
    offset,
  });
  return {
    total: page.total,
    // The page size, as every list answers it (the page may hold fewer).
    count,
    offset,
    messages: page.items,
  };
}

export async function getMessage(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  messageId: string,
): Promise<MessageDetail> {
  await checkClient(deps, clientId, ownerId);
  const found = await repo.findMessage(deps.db, clientId, messageId);
  if (!found) throw notFound('Message');
  return {
    ...found.message,
    attempts: found.attempts,
    callbacks: found.callbacks,
  };
}

export const CSV_COLUMNS = [
  'id',
  'dateCreated',
  'dateUpdated',
  'state',
  'deliveryMethod',
  'simulated',
  'sender',
  'recipient',
  'reference',
  'encoding',
  'segments',
  'price',
  'pricePerSegment',
  'pricePrefix',
  'currency',
  'body',
] as const;

/**
 * The filtered message log as CSV lines (header first), produced as it is read. The client is
 * checked before anything is sent, so an unknown one still answers 404.
 */
export async function messagesCsv(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  filter: MessageFilter,
): Promise<AsyncGenerator<string>> {
  await checkClient(deps, clientId, ownerId);
  return csvLines(deps, clientId, filter);
}

async function* csvLines(
  deps: Deps,
  clientId: string,
  filter: MessageFilter,
): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  let lines: string[] = [];
  for await (const message of repo.eachMessage(deps.db, clientId, filter)) {
    lines.push(
      `${CSV_COLUMNS.map((column) => csvField(message[column], { text: typeof message[column] === 'string' })).join(',')}\r\n`,
    );
    if (lines.length >= 200) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length > 0) yield lines.join('');
}
