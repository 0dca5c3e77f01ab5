/**
 * The retry and failover policy of one message, as pure functions: what the engine does next
 * after each submit's outcome, given the message's route and every earlier attempt. No I/O, no
 * clock: one message's attempt (attempt.ts) feeds it what the database says and carries out
 * its answer.
 *
 * The budget, in one place:
 * - a method's transient failures (no answer, a provider's 5xx, an SMPP system error) are tried
 *   MAX_TRIES_PER_METHOD times, with the queue's backoff between two tries; then the next method.
 *   With an HTTP provider one try is up to HTTP_REQUESTS_PER_TRY requests, a second or so
 *   apart (a throttled or failing provider often answers the next one): at most 3 × 3 requests;
 * - a refusal (SMPP permanent error, HTTP 4xx) moves on to the next method at once;
 * - a method out of reach (the SMPP bind is down) or held by our own flow control costs no try:
 *   the message waits, and fails over only after OUTAGE_FAILOVER_MS out of reach;
 * - waiting ends with the message's validity (MESSAGE_VALIDITY_SECONDS): then it is FAILED;
 *   a SUBMITTED message with no final receipt that long after its submit ends EXPIRED
 *   (expire_messages, run every expiryCheckMs);
 * - when no method is left, the message is FAILED and refunded.
 */
import type { DeliveryMethod, SubmitOutcome } from './types.ts';

/** Submits of one message on one method that failed transiently before it fails over. */
export const MAX_TRIES_PER_METHOD = 3;
/** HTTP requests of one try to Vonage or the gateway (429, 5xx or no answer: the next one). */
export const HTTP_REQUESTS_PER_TRY = 3;
/**
 * A method out of reach (SMPP bind down) this long makes its messages fail over to another
 * method of their route, if there is one; without one they wait until their validity ends.
 */
export const OUTAGE_FAILOVER_MS = 10 * 60_000;
/** Longest pause between two looks at a method out of reach. */
export const MAX_WAIT_DELAY_SECONDS = 30;

/**
 * When to look again at a method out of reach: a quarter of the outage so far, at least the
 * first retry delay and at most MAX_WAIT_DELAY_SECONDS. A short blip costs seconds; a long outage
 * costs one look per message every 30 s, and a message goes at most 30 s after the SMSC is back.
 */
export function waitDelaySeconds(outageMs: number, minSeconds: number): number {
  return Math.min(
    MAX_WAIT_DELAY_SECONDS,
    Math.max(minSeconds, outageMs / 4000),
  );
}

/** Longest pause between two looks for SUBMITTED messages past their validity. */
export const MAX_EXPIRY_CHECK_MS = 60_000;

/**
 * How often to look for SUBMITTED messages past their validity: a quarter of the validity, at
 * most once a minute, so a message ends EXPIRED at most a quarter of its validity (or a minute)
 * late, and the default 48 hours cost one indexed query a minute.
 */
export function expiryCheckMs(validitySeconds: number): number {
  return Math.min(MAX_EXPIRY_CHECK_MS, (validitySeconds * 1000) / 4);
}

/** An earlier attempt, as the database keeps it (`ageMs`: how long ago). */
export interface PastAttempt {
  method: DeliveryMethod;
  state: string;
  ageMs: number;
}

export interface PolicyLimits {
  /** MESSAGE_VALIDITY_SECONDS in ms. */
  validityMs: number;
  /** OUTAGE_FAILOVER_MS (tests shorten it). */
  outageFailoverMs: number;
  /** The queue's first retry delay: the shortest wait. */
  retryDelaySeconds: number;
}

/** What the attempts so far say about each method. */
export interface MethodHistory {
  refused: ReadonlySet<DeliveryMethod>;
  failures: ReadonlyMap<DeliveryMethod, number>;
  /** How long each method whose latest attempt is UNAVAILABLE has been out of reach. */
  outage: ReadonlyMap<DeliveryMethod, number>;
}

export function historyOf(attempts: readonly PastAttempt[]): MethodHistory {
  const refused = new Set<DeliveryMethod>();
  const failures = new Map<DeliveryMethod, number>();
  const outage = new Map<DeliveryMethod, number>();
  for (const attempt of attempts) {
    if (attempt.state === 'REFUSED') refused.add(attempt.method);
    if (attempt.state === 'FAILED') {
      failures.set(attempt.method, (failures.get(attempt.method) ?? 0) + 1);
    }
    if (attempt.state === 'UNAVAILABLE')
      outage.set(attempt.method, attempt.ageMs);
    else outage.delete(attempt.method);
  }
  return { refused, failures, outage };
}

/**
 * The methods to try in this run, in order: the route without the methods that refused or used
 * up their tries; a method out of reach for longer than the failover bound goes last, so the
 * others are tried first and it is still waited for when nothing else is left.
 */
export function methodsToTry(
  route: readonly DeliveryMethod[],
  history: MethodHistory,
  limits: Pick<PolicyLimits, 'outageFailoverMs'>,
): DeliveryMethod[] {
  const usable = route.filter(
    (m) =>
      !history.refused.has(m) &&
      (history.failures.get(m) ?? 0) < MAX_TRIES_PER_METHOD,
  );
  const longDown = (m: DeliveryMethod) =>
    (history.outage.get(m) ?? -1) >= limits.outageFailoverMs;
  return [...usable.filter((m) => !longDown(m)), ...usable.filter(longDown)];
}

/** What to do after a submit that the provider did not take. */
export type NextStep =
  /** Record the attempt (REFUSED or FAILED) and try the next method now. */
  | { do: 'record-and-next'; state: 'REFUSED' | 'FAILED' }
  /** Record the FAILED attempt; the queue runs the job again after its backoff. */
  | { do: 'record-and-retry-later' }
  /** Out of reach for long and another method is left: try it, recording nothing. */
  | { do: 'next' }
  /**
   * Give the message back to the queue for `delaySeconds` without spending a try; with
   * `noteUnavailable`, record one UNAVAILABLE attempt saying why it waits (once per outage).
   */
  | { do: 'wait'; delaySeconds: number; noteUnavailable: boolean }
  /** Waited as long as the message is valid: record a FAILED attempt and stop trying. */
  | { do: 'give-up' };

/**
 * The decision after one outcome that is not 'submitted'. `failuresSoFar`: this method's FAILED
 * attempts before this one; `moreMethods`: whether a method follows this one in this run;
 * `lastRun`: the queue's own retry budget is spent (its final run), so no backoff is left.
 */
export function nextStep(
  outcome: Exclude<SubmitOutcome, { kind: 'submitted' }>,
  context: {
    method: DeliveryMethod;
    history: MethodHistory;
    moreMethods: boolean;
    lastRun: boolean;
    messageAgeMs: number;
  },
  limits: PolicyLimits,
): NextStep {
  const waiting = outcome.kind === 'busy' || outcome.kind === 'unavailable';
  if (waiting && context.messageAgeMs >= limits.validityMs) {
    return { do: 'give-up' };
  }
  if (outcome.kind === 'busy') {
    // Our own flow control held it: nothing was sent and nothing is recorded.
    return {
      do: 'wait',
      delaySeconds: limits.retryDelaySeconds,
      noteUnavailable: false,
    };
  }
  if (outcome.kind === 'unavailable') {
    const waited = context.history.outage.get(context.method);
    if (
      waited !== undefined &&
      waited >= limits.outageFailoverMs &&
      context.moreMethods
    ) {
      return { do: 'next' };
    }
    return {
      do: 'wait',
      delaySeconds: waitDelaySeconds(waited ?? 0, limits.retryDelaySeconds),
      noteUnavailable: waited === undefined,
    };
  }
  if (outcome.kind === 'refused') {
    return { do: 'record-and-next', state: 'REFUSED' };
  }
  const tries = (context.history.failures.get(context.method) ?? 0) + 1;
  if (tries < MAX_TRIES_PER_METHOD && !context.lastRun) {
    return { do: 'record-and-retry-later' };
  }
  return { do: 'record-and-next', state: 'FAILED' };
}
