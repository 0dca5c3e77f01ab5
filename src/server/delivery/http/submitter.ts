/**
 * What the HTTP connectors (Vonage, the generic gateway) share: a concurrency limit on the
 * requests in flight to one provider, bounded retries with exponential backoff and jitter on
 * transient failures, a per-request timeout, and close() that settles everything pending.
 *
 * A retry after a timeout may duplicate a message the provider did take but could not confirm
 * in time: the HTTP providers have no idempotency key. That is the price of not losing it; the
 * client-ref / messageId we send lets the duplicate be traced.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  Connector,
  DeliveryLogger,
  OutgoingSms,
  SubmitOutcome,
} from '../types.ts';
import { storableOutcome } from '../provider-text.ts';
import { Semaphore } from '../../semaphore.ts';

export interface RetryPolicy {
  /** HTTP requests per submit, the first included (default 3). */
  maxAttempts?: number;
  /** Backoff before the 2nd request; doubled each time up to retryMaxMs (500 ms, 5 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/**
 * Delay before request `attempt + 1`, with "equal jitter": half of the exponential step is
 * fixed (a throttled provider always gets a pause), half random (parallel submits that failed
 * together do not come back together).
 */
export function backoffDelayMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return step / 2 + random() * (step / 2);
}

/** One HTTP request's result: permanent outcomes end the submit, 'transient' is retried. */
export type AttemptResult =
  SubmitOutcome | { kind: 'transient'; error: string; throttled?: boolean };

export type HttpAnswer =
  | { kind: 'answer'; status: number; text: string }
  | { kind: 'failed'; error: string };

export interface SubmitterOptions extends RetryPolicy {
  /** Provider name for logs and errors ('Vonage', 'WORLD_SPECIAL gateway'). */
  name: string;
  timeoutMs?: number;
  concurrency?: number;
  logger: DeliveryLogger;
}

const CLOSED = 'connector closed';

function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici wraps the socket error: "fetch failed" { cause: ECONNREFUSED … }
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: string }).code;
    return code ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

export class HttpSubmitter {
  readonly name: string;
  readonly #timeoutMs: number;
  readonly #maxAttempts: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #semaphore: Semaphore;
  readonly #closing = new AbortController();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly log: DeliveryLogger;

  constructor(options: SubmitterOptions) {
    this.name = options.name;
    this.log = options.logger;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxAttempts = options.maxAttempts ?? 3;
    this.#retryBaseMs = options.retryBaseMs ?? 500;
    this.#retryMaxMs = options.retryMaxMs ?? 5_000;
    if (!Number.isInteger(this.#maxAttempts) || this.#maxAttempts < 1) {
      throw new Error(`${this.name}: maxAttempts must be an integer ≥ 1`);
    }
    if (!(this.#timeoutMs > 0)) {
      throw new Error(`${this.name}: timeoutMs must be > 0`);
    }
    this.#semaphore = new Semaphore(options.concurrency ?? 10);
  }

  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  /** Requests in flight right now (for tests and metrics). */
  get active(): number {
    return this.#semaphore.active;
  }

  /**
   * Runs `attempt` until it gives a permanent outcome or the tries are used up. Never rejects.
   * The concurrency slot is held for one request at a time, not across the backoff sleeps;
   * waiting for one, the message takes its turn in its lane (its client's: fair delivery).
   */
  submit(
    sms: Pick<OutgoingSms, 'messageId' | 'lane'>,
    attempt: (signal: AbortSignal) => Promise<AttemptResult>,
  ): Promise<SubmitOutcome> {
    const run = this.#run(sms.messageId, attempt, sms.lane);
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
    return run;
  }

  async #run(
    messageId: string,
    attempt: (signal: AbortSignal) => Promise<AttemptResult>,
    lane: string | undefined,
  ): Promise<SubmitOutcome> {
    const closing = this.#closing.signal;
    let last: AttemptResult | null = null;
    try {
      for (let tries = 1; tries <= this.#maxAttempts; tries += 1) {
        if (tries > 1) {
          const delay = backoffDelayMs(
            tries - 1,
            this.#retryBaseMs,
            this.#retryMaxMs,
          );
          await sleep(delay, undefined, { signal: closing });
        }
        const release = await this.#semaphore.acquire(closing, lane);
        try {
          last = await attempt(closing);
        } finally {
          release();
        }
        if (last.kind !== 'transient') break;
        this.log.debug(
          { messageId, provider: this.name, attempt: tries, error: last.error },
          `${this.name} submit failed transiently`,
        );
      }
    } catch (error) {
      if (closing.aborted) {
        last = { kind: 'retry', error: `${this.name} ${CLOSED}` };
      } else {
        // A bug of ours, not the provider's: still an outcome, never a rejection.
        const message = error instanceof Error ? error.message : String(error);
        this.log.error(
          { messageId, provider: this.name, err: message },
          `${this.name} submit crashed`,
        );
        last = {
          kind: 'retry',
          error: `${this.name} submit failed: ${message}`,
        };
      }
    }
    // Ids and error texts as we can store them: a provider's answer is not trusted.
    const outcome: SubmitOutcome = storableOutcome(
      last === null
        ? { kind: 'retry', error: `${this.name} ${CLOSED}` }
        : last.kind === 'transient'
          ? {
              kind: 'retry',
              error: `${last.error} (${this.#maxAttempts} attempt${this.#maxAttempts > 1 ? 's' : ''})`,
            }
          : last,
    );
    if (outcome.kind !== 'submitted') {
      this.log.warn(
        {
          messageId,
          provider: this.name,
          outcome: outcome.kind,
          error: outcome.error,
        },
        `${this.name} submit not accepted`,
      );
    }
    return outcome;
  }

  /** A POST with this submitter's timeout; aborted by close(). Never rejects. */
  async post(
    url: string,
    init: { headers: Record<string, string>; body: string },
    closing: AbortSignal,
  ): Promise<HttpAnswer> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
        signal: AbortSignal.any([timeout, closing]),
      });
      const text = await response.text();
      return { kind: 'answer', status: response.status, text };
    } catch (error) {
      if (closing.aborted) throw closing.reason;
      if (timeout.aborted) {
        return {
          kind: 'failed',
          error: `no answer from ${this.name} within ${this.#timeoutMs / 1000} s`,
        };
      }
      return {
        kind: 'failed',
        error: `${this.name} unreachable: ${describeFetchError(error)}`,
      };
    }
  }

  /** Pending submits resolve 'retry' at once; resolves when they have. */
  async close(): Promise<void> {
    if (!this.#closing.signal.aborted) {
      this.#closing.abort(new Error(`${this.name} ${CLOSED}`));
    }
    await Promise.allSettled([...this.#inFlight]);
  }
}

/**
 * The part every HTTP connector has in common: one submitter holding its limits and retries,
 * close() settling what is pending. A connector adds its method and how it builds a request
 * and reads the answer. Its receipts do not come here: the webhook routes hand them to the
 * ReceiptInbox.
 */
export abstract class SubmitterConnector implements Connector {
  abstract readonly method: Connector['method'];
  protected readonly submitter: HttpSubmitter;

  /** Takes only the submitter's settings from a connector's options (never its secrets). */
  constructor(name: string, options: Omit<SubmitterOptions, 'name'>) {
    this.submitter = new HttpSubmitter({
      name,
      logger: options.logger,
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      maxAttempts: options.maxAttempts,
      retryBaseMs: options.retryBaseMs,
      retryMaxMs: options.retryMaxMs,
    });
  }

  abstract submit(sms: OutgoingSms): Promise<SubmitOutcome>;

  /** The outcome of a submit after close(): retried later by another worker or node. */
  protected closedOutcome(): Promise<SubmitOutcome> | undefined {
    if (!this.submitter.closed) return undefined;
    return Promise.resolve({
      kind: 'retry',
      error: `${this.submitter.name} connector closed`,
    });
  }

  close(): Promise<void> {
    return this.submitter.close();
  }
}
