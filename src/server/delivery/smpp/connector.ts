/**
 * The MELROSE_SMPP connector: one SMPP 3.4 transceiver bind to the SMSC, kept alive with
 * enquire_link and rebound with capped exponential backoff. Submits go through a window of
 * outstanding submit_sm (and an optional submits-per-second cap); while the bind is down they
 * wait, and PDUs that were outstanding when it dropped are sent again after the rebind.
 *
 * submit_sm_resp statuses:
 * - 0: accepted, the resp's message_id is the provider id of that part.
 * - ESME_RTHROTTLED (0x58), ESME_RMSGQFUL (0x14): the SMSC asks us to slow down. The bind pauses
 *   (`throttlePauseMs`), halves its window and rate, and sends the same PDU again. Not a failure.
 * - ESME_RINVBNDSTS (0x04): the SMSC no longer sees us bound: rebind and send the PDU again.
 * - TRANSIENT_STATUSES (system error, temporary application error, unknown error…): 'retry'.
 * - anything else (invalid addresses, TON/NPI, length, ESME_RSUBMITFAIL, permanent application
 *   error, vendor codes…): 'refused', so the message fails over at once rather than retrying
 *   something this SMSC said it will not take.
 * A message whose parts are not all accepted within `pendingTimeoutMs` of submit() resolves
 * 'retry' when the SMSC may have taken a part (accepted, or sent and cut off by a drop), else
 * 'unavailable' while the bind is down and 'busy' while it is up (our own window, rate cap or
 * throttling pause held it: not a failed try). A submit made while the bind is down answers
 * 'unavailable' after `unboundWaitMs` already, so the queue, not this connector, holds messages
 * through an outage. A part with no submit_sm_resp within `responseTimeoutMs` resolves 'retry'
 * (the SMSC may still have taken it: a retry may then duplicate it).
 *
 * In parts: the bind's lifecycle (bind-session.ts), the window and rate cap (flow-control.ts),
 * the statuses (status.ts), the submit_sm fields (pdu-fields.ts), reading a deliver_sm
 * (receipt.ts, inbound.ts); this file keeps the submit bookkeeping and hands receipts and
 * inbound messages to their handlers.
 */
import smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import type { InboundHandler, InboundPart } from '../../inbound/types.ts';
import { encodeSms } from '../sms-parts.ts';
import type {
  DeliveryLogger,
  InboundReceivingConnector,
  OutgoingSms,
  ReceiptHandler,
  SubmitOutcome,
} from '../types.ts';
import { FairQueue } from '../../fair-queue.ts';
import { storableOutcome, storableReceipt } from '../provider-text.ts';
import { BindSession } from './bind-session.ts';
import { FlowControl, realClock } from './flow-control.ts';
import {
  destinationAddress,
  relativeValidityPeriod,
  sourceAddress,
} from './pdu-fields.ts';
import { readMobileOriginated } from './inbound.ts';
import { readDeliverSm } from './receipt.ts';
import {
  describeStatus,
  ESME_RINVBNDSTS,
  ESME_RX_P_APPN,
  ESME_RX_T_APPN,
  THROTTLE_STATUSES,
  TRANSIENT_STATUSES,
} from './status.ts';

export { relativeValidityPeriod } from './pdu-fields.ts';

/**
 * The longest PDU SMPP allows: a deliver_sm may carry up to 65,535 octets of message_payload.
 * The library's default (16 KB) would make a long inbound message a connection error: the bind
 * drops, the SMSC delivers it again on the next one, and no send gets through meanwhile. Read,
 * it is answered like any other (the inbound writer refuses a text that long).
 */
const MAX_PDU_LENGTH = 65_535 + 1_024;
/** At close, the most the deliver_sm being stored are waited for before the unbind. */
const CLOSE_ANSWER_WAIT_MS = 5_000;
smpp.PDU.maxLength = Math.max(smpp.PDU.maxLength, MAX_PDU_LENGTH);
export {
  describeStatus,
  THROTTLE_STATUSES,
  TRANSIENT_STATUSES,
} from './status.ts';

export interface SmppConnectorOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** submit_sm outstanding at once (default 10). */
  window?: number;
  /** submit_sm per second (default: no cap but the window). */
  maxTps?: number | null;
  logger: DeliveryLogger;
  /** Keep-alive period (default 30 s). */
  enquireLinkMs?: number;
  /** How long to wait for bind_resp, submit_sm_resp, enquire_link_resp (default 10 s). */
  responseTimeoutMs?: number;
  /** First rebind delay, doubled on each failure up to reconnectMaxMs (1 s, 30 s). */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** A message not accepted within this of submit() resolves (default 60 s). */
  pendingTimeoutMs?: number;
  /** A submit made while the bind is down waits this long for it, then 'unavailable' (1 s). */
  unboundWaitMs?: number;
  /** Pause after a throttling answer (default 1 s). */
  throttlePauseMs?: number;
  /**
   * MESSAGE_VALIDITY_SECONDS: sent as each submit_sm's relative validity_period, so the SMSC
   * stops trying when we stop waiting for its receipt (default: none, the SMSC's own).
   */
  validitySeconds?: number | null;
}

interface Pending {
  sms: OutgoingSms;
  ids: (string | undefined)[];
  remaining: number;
  done: boolean;
  resolve(outcome: SubmitOutcome): void;
  timer: NodeJS.Timeout;
  lastError: string | null;
  /** A part was accepted, or sent and cut off unanswered: the SMSC may have it. */
  maybeTaken: boolean;
}

interface Part {
  pending: Pending;
  index: number;
  params: Record<string, unknown>;
}

interface InFlight {
  part: Part;
  timer: NodeJS.Timeout;
}

export function createSmppConnector(
  options: SmppConnectorOptions,
): InboundReceivingConnector {
  return new SmppConnector(options);
}

class SmppConnector implements InboundReceivingConnector {
  readonly method = 'MELROSE_SMPP' as const;

  readonly #options: Required<
    Omit<SmppConnectorOptions, 'maxTps' | 'validitySeconds'>
  > & {
    maxTps: number | null;
  };
  /** validity_period of every submit_sm, or null to send none. */
  readonly #validityPeriod: string | null;
  readonly #log: DeliveryLogger;
  #handler: ReceiptHandler | null = null;
  #inboundHandler: InboundHandler | null = null;
  /** deliver_sm whose handler runs: answered once it is done. */
  readonly #handling = new Set<Promise<void>>();

  #closing = false;
  #closed: Promise<void> | null = null;
  readonly #bind: BindSession;
  readonly #flow: FlowControl;

  readonly #pending = new Set<Pending>();
  /**
   * Parts waiting for the window and rate cap, one lane per client taking turns (fair delivery):
   * a client's backlog already in memory does not hold back another client's message.
   */
  readonly #queue = new FairQueue<Part>();
  readonly #inFlight = new Map<number, InFlight>();
  #reference = Math.floor(Math.random() * 256);

  constructor(options: SmppConnectorOptions) {
    // `??` rather than a spread: a caller passing config values may pass undefined.
    this.#options = {
      host: options.host,
      port: options.port,
      systemId: options.systemId,
      password: options.password,
      logger: options.logger,
      systemType: options.systemType ?? '',
      window: options.window ?? 10,
      maxTps: options.maxTps ?? null,
      enquireLinkMs: options.enquireLinkMs ?? 30_000,
      responseTimeoutMs: options.responseTimeoutMs ?? 10_000,
      reconnectMinMs: options.reconnectMinMs ?? 1_000,
      reconnectMaxMs: options.reconnectMaxMs ?? 30_000,
      pendingTimeoutMs: options.pendingTimeoutMs ?? 60_000,
      unboundWaitMs: options.unboundWaitMs ?? 1_000,
      throttlePauseMs: options.throttlePauseMs ?? 1_000,
    };
    if (!Number.isInteger(this.#options.window) || this.#options.window < 1) {
      throw new Error('SMPP window must be an integer ≥ 1');
    }
    if (this.#options.maxTps !== null && !(this.#options.maxTps > 0)) {
      throw new Error('SMPP maxTps must be > 0');
    }
    this.#log = options.logger;
    this.#validityPeriod =
      options.validitySeconds == null
        ? null
        : relativeValidityPeriod(options.validitySeconds);
    this.#flow = new FlowControl({
      window: this.#options.window,
      maxTps: this.#options.maxTps,
      throttlePauseMs: this.#options.throttlePauseMs,
      clock: realClock,
      ready: () => this.#pump(),
    });
    this.#bind = new BindSession(this.#options, {
      waiting: () => this.#queue.length,
      bound: () => this.#pump(),
      dropped: () => this.#takeBackOutstanding(),
      deliverSm: (session, pdu) => this.#onDeliverSm(session, pdu),
    });
  }

  onReceipt(handler: ReceiptHandler): void {
    this.#handler = handler;
  }

  onInbound(handler: InboundHandler): void {
    this.#inboundHandler = handler;
  }

  submit(sms: OutgoingSms): Promise<SubmitOutcome> {
    if (this.#closing) {
      return Promise.resolve({ kind: 'retry', error: 'SMPP connector closed' });
    }
    const source = sourceAddress(sms.from);
    if (!source) {
      return Promise.resolve({
        kind: 'refused',
        error: `invalid sender for SMPP: ${JSON.stringify(sms.from)}`,
      });
    }
    const destination = destinationAddress(sms.to);
    if (!destination) {
      return Promise.resolve({
        kind: 'refused',
        error: `invalid destination for SMPP: ${JSON.stringify(sms.to)}`,
      });
    }
    let encoded;
    try {
      encoded = encodeSms(sms.text, sms.encoding, this.#reference);
    } catch (error) {
      return Promise.resolve({
        kind: 'refused',
        error: (error as Error).message,
      });
    }
    if (encoded.shortMessages.length > 1) {
      this.#reference = (this.#reference + 1) & 0xff;
    }

    return new Promise<SubmitOutcome>((resolve) => {
      const { pendingTimeoutMs, unboundWaitMs } = this.#options;
      // Bind down: wait briefly (a rebind in progress), not the whole pending time.
      const wait = this.#bind.isUp()
        ? pendingTimeoutMs
        : Math.min(unboundWaitMs, pendingTimeoutMs);
      const pending: Pending = {
        sms,
        ids: [],
        remaining: encoded.shortMessages.length,
        done: false,
        resolve,
        lastError: null,
        maybeTaken: false,
        timer: setTimeout(() => this.#onPendingTimeout(pending, wait), wait),
      };
      this.#pending.add(pending);
      // A message with no lane (tests, a re-drive) shares one.
      const lane = sms.lane ?? '';
      encoded.shortMessages.forEach((shortMessage, index) => {
        this.#queue.push(lane, {
          pending,
          index,
          params: {
            service_type: '',
            ...source,
            ...destination,
            esm_class: encoded.esmClass,
            registered_delivery: 1,
            ...(this.#validityPeriod && {
              validity_period: this.#validityPeriod,
            }),
            data_coding: encoded.dataCoding,
            short_message: shortMessage,
          },
        });
      });
      this.#pump();
    });
  }

  /** The pending time is over: say whether the provider could have the message. */
  #onPendingTimeout(pending: Pending, waitedMs: number): void {
    const { pendingTimeoutMs } = this.#options;
    if (this.#bind.isUp() && waitedMs < pendingTimeoutMs) {
      // The short wait for a bind, and it is up now: the full pending time applies.
      pending.timer = setTimeout(
        () => this.#onPendingTimeout(pending, pendingTimeoutMs),
        pendingTimeoutMs - waitedMs,
      );
      return;
    }
    const seconds = waitedMs / 1000;
    if (pending.maybeTaken) {
      const why = pending.lastError ?? this.#bind.unavailableReason();
      this.#finish(pending, {
        kind: 'retry',
        error: `not accepted by the SMSC within ${seconds} s${why ? ` (${why})` : ''}`,
      });
    } else if (!this.#bind.isUp()) {
      this.#finish(pending, {
        kind: 'unavailable',
        error: this.#bind.unavailableReason() ?? 'SMSC unavailable',
      });
    } else {
      const why = pending.lastError ? ` (${pending.lastError})` : '';
      this.#finish(pending, {
        kind: 'busy',
        error: `not sent within ${seconds} s: behind the bind's window or rate cap${why}`,
      });
    }
  }

  isUp(): boolean {
    return this.#bind.isUp();
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    this.#closing = true;
    this.#flow.close();
    for (const pending of [...this.#pending]) {
      this.#finish(pending, { kind: 'retry', error: 'SMPP connector closed' });
    }
    this.#queue.clear();
    this.#closed = this.#answerHandled().then(() => this.#bind.close());
    return this.#closed;
  }

  /**
   * Before the unbind, the deliver_sm being stored get their answer (the writers close after
   * the connectors): unanswered, the SMSC would deliver each again to the next bind, and an
   * inbound message without an id would be stored twice at every restart. Bounded: a writer
   * that hangs does not hold up the stop.
   */
  async #answerHandled(): Promise<void> {
    if (this.#handling.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.#handling]),
      new Promise<void>((resolve) => {
        timer = setTimeout(
          resolve,
          Math.min(this.#options.responseTimeoutMs, CLOSE_ANSWER_WAIT_MS),
        );
      }),
    ]);
    clearTimeout(timer);
  }

  /**
   * The bind dropped: its outstanding PDUs go back to the front of the queue, in the order they
   * were sent, to be sent again after the rebind. How many there were.
   */
  #takeBackOutstanding(): number {
    const outstanding = [...this.#inFlight.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, entry]) => {
        clearTimeout(entry.timer);
        return entry.part;
      })
      .filter((part) => !part.pending.done);
    this.#inFlight.clear();
    for (const part of outstanding) {
      part.pending.lastError = 'SMPP bind dropped';
      // Sent and not answered: the SMSC may have taken it before the drop.
      part.pending.maybeTaken = true;
    }
    this.#queue.pushFront(outstanding);
    return outstanding.length;
  }

  // ---- receipts and mobile-originated messages ----

  /**
   * Every deliver_sm is answered. A receipt or an inbound message is acknowledged (status 0)
   * only once its handler has stored it; ESME_RX_T_APPN (temporary) when it failed or there is
   * no handler yet, so that the SMSC delivers it again later. An inbound message that can never
   * be read (an unknown data_coding, a sender that is no number) gets ESME_RX_P_APPN, SMPP
   * 3.4's permanent application error, so that the SMSC stops offering it and records it as
   * refused rather than delivered. What cannot be a receipt we use is acknowledged: the SMSC
   * has nothing better to do with it.
   */
  #onDeliverSm(session: Session, pdu: PDU): void {
    const answer = (status: number) => {
      session.send(pdu.response({ command_status: status }));
    };
    const read = readDeliverSm(pdu);
    switch (read.kind) {
      case 'mobile-originated':
        return this.#onMobileOriginated(pdu, answer);
      case 'interim':
        this.#log.debug(
          { providerMessageId: read.providerMessageId, stat: read.stat },
          'SMPP intermediate receipt ignored',
        );
        return answer(0);
      case 'unreadable':
        this.#log.warn({ reason: read.reason }, 'SMPP receipt unreadable');
        return answer(0);
    }
    const handler = this.#handler;
    if (!handler) {
      // Acknowledging would lose it; the SMSC delivers it again later.
      this.#log.warn(
        { providerMessageId: read.receipt.providerMessageId },
        'SMPP receipt before a receipt handler was set',
      );
      return answer(ESME_RX_T_APPN);
    }
    // The SMSC's id and error text as we can store them (a NUL, a 3,000-character id…).
    const receipt = storableReceipt(read.receipt);
    this.#handOver(
      () => handler(receipt),
      answer,
      { providerMessageId: receipt.providerMessageId },
      'SMPP receipt handler failed: asking the SMSC to deliver it again',
    );
  }

  /** Never the text in the log: it is the customer's correspondence. */
  #onMobileOriginated(pdu: PDU, answer: (status: number) => void): void {
    const read = readMobileOriginated(pdu);
    if (read.kind === 'unreadable') {
      this.#log.warn(
        { reason: read.reason, dataCoding: pdu.data_coding },
        'SMPP inbound message unreadable: refused for good',
      );
      return answer(ESME_RX_P_APPN);
    }
    const handler = this.#inboundHandler;
    const about = inboundLogFields(read.part);
    if (!handler) {
      this.#log.warn(
        about,
        'SMPP inbound message before an inbound handler was set',
      );
      return answer(ESME_RX_T_APPN);
    }
    const { part } = read;
    this.#handOver(
      () => handler(part),
      answer,
      about,
      'SMPP inbound handler failed: asking the SMSC to deliver it again',
    );
  }

  /** Runs a handler; status 0 once it resolved, ESME_RX_T_APPN (logged) if it threw. */
  #handOver(
    handle: () => Promise<void>,
    answer: (status: number) => void,
    about: object,
    failure: string,
  ): void {
    const handling = Promise.resolve()
      .then(handle)
      .then(
        () => answer(0),
        (error: unknown) => {
          this.#log.error(
            {
              ...about,
              err: error instanceof Error ? error.message : String(error),
            },
            failure,
          );
          answer(ESME_RX_T_APPN);
        },
      );
    this.#handling.add(handling);
    void handling.finally(() => this.#handling.delete(handling));
  }

  // ---- submitting ----

  #pump(): void {
    const session = this.#bind.session;
    if (!this.#bind.isUp() || !session || this.#closing) return;
    if (this.#flow.paused()) return;
    while (this.#flow.hasRoom(this.#inFlight.size) && this.#queue.length > 0) {
      const part = this.#queue.peek()!;
      if (part.pending.done) {
        this.#queue.shift();
        continue;
      }
      if (!this.#flow.take()) return;
      this.#queue.shift();
      if (!this.#send(session, part)) {
        this.#queue.pushFront([part]);
        session.destroy(); // not writable: the close handler rebinds
        return;
      }
    }
  }

  #send(session: Session, part: Part): boolean {
    const pdu = new smpp.PDU('submit_sm', part.params);
    const sent = session.send(pdu, (resp) => this.#onSubmitResp(session, resp));
    if (!sent) return false;
    const sequence = pdu.sequence_number;
    const timer = setTimeout(() => {
      if (this.#inFlight.get(sequence)?.part !== part) return;
      this.#inFlight.delete(sequence);
      const seconds = this.#options.responseTimeoutMs / 1000;
      this.#finish(part.pending, {
        kind: 'retry',
        error: `no submit_sm_resp within ${seconds} s`,
      });
      this.#pump();
    }, this.#options.responseTimeoutMs);
    this.#inFlight.set(sequence, { part, timer });
    return true;
  }

  #onSubmitResp(session: Session, resp: PDU): void {
    const entry = this.#inFlight.get(resp.sequence_number);
    if (this.#bind.session !== session || !entry) return; // late: timed out or from a dropped bind
    this.#inFlight.delete(resp.sequence_number);
    clearTimeout(entry.timer);
    const { part } = entry;
    const { pending } = part;
    const status = resp.command_status;

    if (status === 0) {
      this.#flow.accepted();
      if (!pending.done) {
        pending.maybeTaken = true;
        pending.ids[part.index] = String(resp.message_id ?? '');
        pending.remaining -= 1;
        if (pending.remaining === 0) {
          this.#finish(pending, {
            kind: 'submitted',
            providerMessageIds: pending.ids.map((id) => id ?? ''),
          });
        }
      }
    } else if (THROTTLE_STATUSES.has(status)) {
      this.#throttle(status);
      pending.lastError = `throttled: ${describeStatus(status)}`;
      if (!pending.done) this.#queue.pushFront([part]);
    } else if (status === ESME_RINVBNDSTS) {
      pending.lastError = `SMSC says not bound: ${describeStatus(status)}`;
      if (!pending.done) this.#queue.pushFront([part]);
      this.#log.warn({}, 'SMSC answered ESME_RINVBNDSTS: rebinding');
      session.destroy();
      return;
    } else if (TRANSIENT_STATUSES.has(status)) {
      this.#finish(pending, {
        kind: 'retry',
        error: `SMSC error ${describeStatus(status)}`,
      });
    } else {
      this.#finish(pending, {
        kind: 'refused',
        error: `SMSC refused: ${describeStatus(status)}`,
      });
    }
    this.#pump();
  }

  /** Halve window and rate once per pause (flow-control.ts); logged when they are cut. */
  #throttle(status: number): void {
    if (!this.#flow.throttled()) return;
    this.#log.warn(
      {
        status: describeStatus(status),
        window: this.#flow.window,
        maxTps: this.#flow.rate,
        pauseMs: this.#options.throttlePauseMs,
      },
      'SMSC throttling: slowing down',
    );
  }

  #finish(pending: Pending, outcome: SubmitOutcome): void {
    if (pending.done) return;
    pending.done = true;
    clearTimeout(pending.timer);
    this.#pending.delete(pending);
    if (outcome.kind !== 'submitted') {
      this.#log.warn(
        {
          messageId: pending.sms.messageId,
          outcome: outcome.kind,
          error: outcome.error,
        },
        'SMPP submit not accepted',
      );
    }
    // Ids and error texts as we can store them: what the SMSC sent is not trusted.
    pending.resolve(storableOutcome(outcome));
  }
}

/** What the log says of an inbound part: where it went and which part, not who sent what. */
function inboundLogFields(part: InboundPart): object {
  return {
    to: part.to,
    providerMessageId: part.providerMessageId,
    concat: part.concat,
    encoding: part.encoding,
  };
}
