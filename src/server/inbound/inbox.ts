/**
 * The one inbound writer (CONTRACT "Two-way messaging": Inbound from each method). Every
 * method's receiver hands its parts here: the SMPP bind's deliver_sm, Vonage's and the gateway's
 * inbound webhooks. Parts are cleaned (storableInbound), then group-committed to record_inbound
 * (migrations/functions/record_inbound.sql), which routes each to the client holding its number,
 * stores a provider's message once, keeps the parts of a concatenated message until all are
 * there and joins them. A failed batch is written again in halves, so a part the database still
 * refuses fails alone, as receipts do (receipt-inbox.ts, writer.ts).
 *
 * Parts still missing 10 minutes after the first arrived are stored as they are by a sweep that
 * every node runs (store_overdue_inbound): the state is the table, so a restart loses nothing,
 * and two nodes sweeping at once store a message once.
 */
import type { Queryable } from '../db/client.ts';
import { GroupCommit } from '../db/group-commit.ts';
import type { DeliveryMethod } from '../../shared/limits.ts';
import { storableInbound } from './storable.ts';
import type { InboundPart, InboundSink } from './types.ts';

/**
 * What became of a part: `stored` (a message now), `waiting` (a part kept for the others),
 * `duplicate` (had already), `unrouted` (nobody holds its number: dropped), `refused` (not
 * storable: dropped, see storableInbound). Each is final: the provider is acknowledged.
 */
export type InboundOutcome =
  'stored' | 'waiting' | 'duplicate' | 'unrouted' | 'refused';

/** CONTRACT: parts still missing this long after the first arrived are stored as they are. */
export const INBOUND_PARTS_LIMIT_MS = 10 * 60_000;
/**
 * How long the parts of a joined message are kept to know one delivered again: Vonage retries
 * an unanswered inbound webhook for hours, not days.
 */
export const INBOUND_PARTS_KEEP_MS = 24 * 3_600_000;
/** How often each node looks for overdue parts: stored within the limit and this. */
export const INBOUND_SWEEP_MS = 15_000;

/** Counts for the metrics (sms_inbound_total{method}, sms_inbound_unrouted_total). */
export interface InboundObserver {
  stored(method: DeliveryMethod, count: number): void;
  unrouted(count: number): void;
}

interface WarnLog {
  warn(details: object, message: string): void;
}

interface Row {
  r_ord: number | null;
  r_outcome: Exclude<InboundOutcome, 'refused'>;
  r_message_id: string | null;
  r_method: DeliveryMethod;
}

const seconds = (ms: number) => `${ms / 1000} seconds`;

export class InboundInbox implements InboundSink {
  readonly #db: Queryable;
  readonly #log: WarnLog | undefined;
  readonly #writer: GroupCommit<InboundPart, Row['r_outcome']>;
  #observer: InboundObserver | null = null;
  #timer: NodeJS.Timeout | null = null;
  #sweeping: Promise<unknown> | null = null;

  constructor(db: Queryable, log?: WarnLog) {
    this.#db = db;
    this.#log = log;
    this.#writer = new GroupCommit<InboundPart, Row['r_outcome']>(
      (parts) => this.#write(parts),
      { max: 500, isolateFailures: true },
    );
  }

  /** Where the counts go (the app's metrics). */
  observe(observer: InboundObserver): void {
    this.#observer = observer;
  }

  /**
   * Stores one received message or part (InboundSink). Resolves once it is stored (or known: a
   * duplicate, a number nobody holds, a part that can never be stored, logged): only then may
   * the provider be acknowledged. Rejects when the database could not take it: the provider
   * should deliver it again.
   */
  async receive(part: InboundPart): Promise<void> {
    await this.take(part);
  }

  /** receive, answering what became of the part. */
  async take(raw: InboundPart): Promise<InboundOutcome> {
    const checked = storableInbound(raw);
    if ('problem' in checked) {
      this.#log?.warn(
        {
          method: raw.method,
          providerMessageId: raw.providerMessageId,
          problem: checked.problem,
        },
        `inbound message refused and dropped: ${checked.problem}`,
      );
      return 'refused';
    }
    return this.#writer.push(checked.part);
  }

  async #write(parts: InboundPart[]): Promise<Row['r_outcome'][]> {
    const column = <T>(pick: (part: InboundPart) => T) => parts.map(pick);
    const rows = await this.#db.query<Row>(
      `SELECT * FROM record_inbound($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
         $6::text[], $7::int[], $8::int[], $9::int[], $10::interval)`,
      [
        column((p) => p.method),
        column((p) => p.providerMessageId),
        column((p) => p.from),
        column((p) => p.to),
        column((p) => p.body),
        column((p) => p.encoding),
        column((p) => p.concat?.reference ?? null),
        column((p) => p.concat?.total ?? null),
        column((p) => p.concat?.part ?? null),
        seconds(INBOUND_PARTS_LIMIT_MS),
      ],
    );
    this.#count(rows, parts);
    const outcomes = new Array<Row['r_outcome']>(parts.length);
    for (const row of rows) {
      if (row.r_ord !== null) outcomes[row.r_ord - 1] = row.r_outcome;
    }
    return outcomes;
  }

  /**
   * Messages stored, by method; unrouted messages once each: a whole one, the first part of a
   * concatenated one (its other parts are the same message), or a waiting one whose number
   * nobody holds any more (`parts` absent: the sweep).
   */
  #count(rows: Row[], parts?: InboundPart[]): void {
    const observer = this.#observer;
    if (!observer) return;
    const stored = new Map<DeliveryMethod, number>();
    let unrouted = 0;
    for (const row of rows) {
      if (row.r_outcome === 'stored') {
        stored.set(row.r_method, (stored.get(row.r_method) ?? 0) + 1);
      } else if (row.r_outcome === 'unrouted') {
        const part = row.r_ord === null ? undefined : parts?.[row.r_ord - 1];
        if (!part?.concat || part.concat.part === 1) unrouted++;
      }
    }
    for (const [method, count] of stored) observer.stored(method, count);
    if (unrouted > 0) observer.unrouted(unrouted);
  }

  /**
   * Stores the messages whose parts waited longer than the limit, as they are. Answers how
   * many messages it stored.
   */
  async sweep(): Promise<number> {
    const rows = await this.#db.query<Row>(
      'SELECT * FROM store_overdue_inbound($1::interval, $2::interval)',
      [seconds(INBOUND_PARTS_LIMIT_MS), seconds(INBOUND_PARTS_KEEP_MS)],
    );
    this.#count(rows);
    return rows.filter((row) => row.r_outcome === 'stored').length;
  }

  /** Sweeps every `intervalMs` until close. */
  start(intervalMs: number = INBOUND_SWEEP_MS): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#sweeping) return;
      this.#sweeping = this.sweep()
        .catch((err: unknown) =>
          this.#log?.warn({ err }, 'storing overdue inbound parts failed'),
        )
        .finally(() => {
          this.#sweeping = null;
        });
    }, intervalMs);
    this.#timer.unref();
  }

  /** Stops sweeping; resolves once what was received is written. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#sweeping;
    await this.#writer.drain();
  }
}
