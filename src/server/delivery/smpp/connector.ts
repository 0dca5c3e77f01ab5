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
 */
import smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import { encodeSms } from '../sms-parts.ts';
import type {
  Connector,
  DeliveryLogger,
  OutgoingSms,
  ReceiptHandler,
  SubmitOutcome,
} from '../types.ts';
import { storableOutcome, storableReceipt } from '../provider-text.ts';
import { readDeliverSm } from './receipt.ts';

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

/** The largest day count of a relative validity_period (DD: two digits). */
const MAX_VALIDITY_DAYS = 99;

/**
 * SMPP 3.4 §7.1.1 relative time, "YYMMDDhhmmsstnnR", for a number of seconds: days, hours,
 * minutes and seconds (years and months stay 00, their length is not fixed; 2 days is
 * "000002000000000R"). Beyond 99 days it is 99 days 23:59:59, the most the field holds
 * without months (SMSCs cap validity far lower anyway).
 */
export function relativeValidityPeriod(seconds: number): string {
  const total = Math.min(
    Math.max(0, Math.floor(seconds)),
    (MAX_VALIDITY_DAYS + 1) * 86_400 - 1,
  );
  const two = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `0000${two(days)}${two(hours)}${two(minutes)}${two(total % 60)}000R`;
}

/** submit_sm_resp statuses worth trying again later on the same SMSC. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([
  0x08, // ESME_RSYSERR
  0x64, // ESME_RX_T_APPN temporary application error
  0xfe, // ESME_RDELIVERYFAILURE (SMPP 5.0)
  0xff, // ESME_RUNKNOWNERR
]);
export const THROTTLE_STATUSES: ReadonlySet<number> = new Set([0x58, 0x14]);
const ESME_RINVBNDSTS = 0x04;
/** deliver_sm_resp status asking the SMSC to deliver the receipt again later. */
const ESME_RX_T_APPN = 0x64;

const STATUS_NAMES = new Map<number, string>(
  Object.entries(smpp.errors).map(([name, code]) => [code, name]),
);

export function describeStatus(status: number): string {
  const hex = `0x${status.toString(16).padStart(2, '0')}`;
  const name = STATUS_NAMES.get(status);
  return name ? `${hex} ${name}` : hex;
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

/** Sender address fields: alphanumeric TON 5 NPI 0, a number TON 1 NPI 1 without '+'. */
function sourceAddress(from: string) {
  const number = /^\+?(\d{1,20})$/.exec(from.trim());
  if (number) {
    return {
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: number[1],
    };
  }
  if (!/^[\x20-\x7e]{1,11}$/.test(from)) return null;
  return { source_addr_ton: 5, source_addr_npi: 0, source_addr: from };
}

function destinationAddress(to: string) {
  const number = /^\+?(\d{1,20})$/.exec(to.trim());
  if (!number) return null;
  return { dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: number[1] };
}

export function createSmppConnector(options: SmppConnectorOptions): Connector {
  return new SmppConnector(options);
}

class SmppConnector implements Connector {
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

  #session: Session | null = null;
  #bound = false;
  #closing = false;
  #closed: Promise<void> | null = null;
  #lastBindError: string | null = null;
  #reconnectAttempt = 0;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #bindTimer: NodeJS.Timeout | null = null;
  #enquireTimer: NodeJS.Timeout | null = null;
  #enquireDeadline: NodeJS.Timeout | null = null;

  readonly #pending = new Set<Pending>();
  #queue: Part[] = [];
  readonly #inFlight = new Map<number, InFlight>();
  #reference = Math.floor(Math.random() * 256);

  // Flow control: window and token bucket, both cut on throttling and regrown on success.
  #window: number;
  #rate: number | null;
  #tokens: number;
  #refilledAt = performance.now();
  #pausedUntil = 0;
  #successesSinceGrowth = 0;
  #pumpTimer: NodeJS.Timeout | null = null;

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
    this.#window = this.#options.window;
    this.#rate = this.#options.maxTps;
    this.#tokens = this.#bucketSize();
    this.#connect();
  }

  onReceipt(handler: ReceiptHandler): void {
    this.#handler = handler;
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
      const wait = this.#bound
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
      encoded.shortMessages.forEach((shortMessage, index) => {
        this.#queue.push({
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
    if (this.#bound && waitedMs < pendingTimeoutMs) {
      // The short wait for a bind, and it is up now: the full pending time applies.
      pending.timer = setTimeout(
        () => this.#onPendingTimeout(pending, pendingTimeoutMs),
        pendingTimeoutMs - waitedMs,
      );
      return;
    }
    const seconds = waitedMs / 1000;
    if (pending.maybeTaken) {
      const why = pending.lastError ?? this.#unavailableReason();
      this.#finish(pending, {
        kind: 'retry',
        error: `not accepted by the SMSC within ${seconds} s${why ? ` (${why})` : ''}`,
      });
    } else if (!this.#bound) {
      this.#finish(pending, {
        kind: 'unavailable',
        error: this.#unavailableReason() ?? 'SMSC unavailable',
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
    return this.#bound;
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    this.#closing = true;
    for (const timer of [this.#reconnectTimer, this.#pumpTimer]) {
      if (timer) clearTimeout(timer);
    }
    for (const pending of [...this.#pending]) {
      this.#finish(pending, { kind: 'retry', error: 'SMPP connector closed' });
    }
    this.#queue = [];
    const session = this.#session;
    this.#closed = new Promise<void>((resolve) => {
      if (!session) return resolve();
      session.socket.once('close', () => resolve());
      if (session.socket.destroyed) return resolve();
      if (!this.#bound) return session.destroy();
      // A polite unbind; an SMSC that does not answer is cut off.
      const cutOff = setTimeout(
        () => session.destroy(),
        Math.min(this.#options.responseTimeoutMs, 2_000),
      );
      session.socket.once('close', () => clearTimeout(cutOff));
      const sent = session.unbind({}, () => session.close());
      if (!sent) session.destroy();
    });
    return this.#closed;
  }

  // ---- connection ----

  #connect(): void {
    this.#reconnectTimer = null;
    if (this.#closing) return;
    const { host, port, systemId } = this.#options;
    const session = smpp.connect({ host, port });
    this.#session = session;

    session.on('connect', () => {
      // PDUs are small: without this, Nagle holds the 2nd submit of a window until the SMSC
      // acknowledges the 1st, and the window degenerates to one PDU per round trip.
      session.socket.setNoDelay(true);
      this.#bind(session);
    });
    session.on('error', (error: Error) => {
      if (this.#session === session) this.#lastBindError = error.message;
      this.#log.warn(
        { host, port, systemId, err: error.message },
        'SMPP connection error',
      );
      session.destroy();
    });
    session.on('close', () => this.#onClose(session));
    session.on('pdu', (pdu: PDU) => this.#onPdu(session, pdu));
  }

  #bind(session: Session): void {
    const { systemId, password, systemType, responseTimeoutMs } = this.#options;
    this.#bindTimer = setTimeout(() => {
      this.#lastBindError = 'no bind_resp';
      this.#log.warn({ systemId }, 'SMPP bind got no answer');
      session.destroy();
    }, responseTimeoutMs);
    session.bind_transceiver(
      {
        system_id: systemId,
        password,
        system_type: systemType,
        interface_version: 0x34,
      },
      (resp) => {
        if (this.#bindTimer) clearTimeout(this.#bindTimer);
        this.#bindTimer = null;
        if (this.#session !== session || this.#closing) return;
        if (resp.command_status !== 0) {
          this.#lastBindError = `bind refused: ${describeStatus(resp.command_status)}`;
          this.#log.warn(
            {
              host: this.#options.host,
              port: this.#options.port,
              systemId,
              status: describeStatus(resp.command_status),
            },
            'SMPP bind refused',
          );
          session.destroy();
          return;
        }
        this.#bound = true;
        this.#lastBindError = null;
        this.#reconnectAttempt = 0;
        this.#log.info(
          {
            host: this.#options.host,
            port: this.#options.port,
            systemId,
            resent: this.#queue.length,
          },
          'SMPP bound (transceiver)',
        );
        this.#startEnquireLink(session);
        this.#pump();
      },
    );
  }

  #onClose(session: Session): void {
    if (this.#session !== session) return;
    for (const timer of [
      this.#bindTimer,
      this.#enquireTimer,
      this.#enquireDeadline,
    ]) {
      if (timer) clearTimeout(timer);
    }
    this.#bindTimer = this.#enquireTimer = this.#enquireDeadline = null;
    const wasBound = this.#bound;
    this.#bound = false;
    this.#session = null;

    // Outstanding PDUs go back to the front of the queue, in the order they were sent.
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
    this.#queue = [...outstanding, ...this.#queue];

    if (this.#closing) return;
    if (wasBound) {
      this.#log.warn(
        { systemId: this.#options.systemId, outstanding: outstanding.length },
        'SMPP bind lost',
      );
    }
    const delay = Math.min(
      this.#options.reconnectMaxMs,
      this.#options.reconnectMinMs * 2 ** this.#reconnectAttempt,
    );
    this.#reconnectAttempt = Math.min(this.#reconnectAttempt + 1, 30);
    this.#log.info({ delayMs: delay }, 'SMPP rebind scheduled');
    this.#reconnectTimer = setTimeout(() => this.#connect(), delay);
  }

  #startEnquireLink(session: Session): void {
    const { enquireLinkMs, responseTimeoutMs } = this.#options;
    this.#enquireTimer = setInterval(() => {
      if (this.#enquireDeadline) return; // the previous one is still unanswered
      this.#enquireDeadline = setTimeout(() => {
        this.#log.warn(
          { systemId: this.#options.systemId },
          'SMPP enquire_link unanswered: dropping the bind',
        );
        session.destroy();
      }, responseTimeoutMs);
      session.enquire_link({}, () => {
        if (this.#enquireDeadline) clearTimeout(this.#enquireDeadline);
        this.#enquireDeadline = null;
      });
    }, enquireLinkMs);
  }

  #unavailableReason(): string | null {
    if (this.#bound) return null;
    return `SMSC unavailable${this.#lastBindError ? `: ${this.#lastBindError}` : ''}`;
  }

  // ---- incoming requests ----

  #onPdu(session: Session, pdu: PDU): void {
    // Listeners run inside the library's socket read loop: nothing may throw out of here.
    try {
      if (pdu.isResponse()) return; // answered through the send callbacks
      switch (pdu.command) {
        case 'deliver_sm':
          this.#onDeliverSm(session, pdu);
          return;
        case 'enquire_link':
          session.send(pdu.response());
          return;
        case 'unbind':
          session.send(pdu.response());
          session.close();
          return;
        case 'alert_notification':
          return; // has no response
        case 'unknown':
          session.send(pdu.response()); // generic_nack
          return;
        default:
          session.send(pdu.response({ command_status: 0x03 })); // ESME_RINVCMDID
      }
    } catch (error) {
      this.#log.error(
        { err: (error as Error).message, command: pdu.command },
        'SMPP request handling failed',
      );
    }
  }

  #onDeliverSm(session: Session, pdu: PDU): void {
    const answer = (status: number) => {
      session.send(pdu.response({ command_status: status }));
    };
    const read = readDeliverSm(pdu);
    switch (read.kind) {
      case 'mobile-originated':
        this.#log.debug({}, 'SMPP mobile-originated message ignored');
        return answer(0);
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
    Promise.resolve()
      .then(() => handler(receipt))
      .then(
        () => answer(0),
        (error: unknown) => {
          this.#log.error(
            {
              err: error instanceof Error ? error.message : String(error),
              providerMessageId: receipt.providerMessageId,
            },
            'SMPP receipt handler failed: asking the SMSC to deliver it again',
          );
          answer(ESME_RX_T_APPN);
        },
      );
  }

  // ---- submitting ----

  #bucketSize(): number {
    // Up to 50 ms worth of submits in one burst, so the cap holds over any short interval.
    return this.#rate === null ? 1 : Math.max(1, this.#rate / 20);
  }

  #schedulePump(delayMs: number): void {
    if (this.#pumpTimer) return;
    this.#pumpTimer = setTimeout(
      () => {
        this.#pumpTimer = null;
        this.#pump();
      },
      Math.max(1, Math.ceil(delayMs)),
    );
  }

  #pump(): void {
    const session = this.#session;
    if (!this.#bound || !session || this.#closing) return;
    const now = performance.now();
    if (now < this.#pausedUntil) {
      this.#schedulePump(this.#pausedUntil - now);
      return;
    }
    while (this.#inFlight.size < this.#window && this.#queue.length > 0) {
      const part = this.#queue[0]!;
      if (part.pending.done) {
        this.#queue.shift();
        continue;
      }
      if (this.#rate !== null) {
        const at = performance.now();
        this.#tokens = Math.min(
          this.#bucketSize(),
          this.#tokens + ((at - this.#refilledAt) / 1000) * this.#rate,
        );
        this.#refilledAt = at;
        if (this.#tokens < 1) {
          this.#schedulePump(((1 - this.#tokens) / this.#rate) * 1000);
          return;
        }
        this.#tokens -= 1;
      }
      this.#queue.shift();
      if (!this.#send(session, part)) {
        this.#queue.unshift(part);
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
    if (this.#session !== session || !entry) return; // late: timed out or from a dropped bind
    this.#inFlight.delete(resp.sequence_number);
    clearTimeout(entry.timer);
    const { part } = entry;
    const { pending } = part;
    const status = resp.command_status;

    if (status === 0) {
      this.#grow();
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
      if (!pending.done) this.#queue.unshift(part);
    } else if (status === ESME_RINVBNDSTS) {
      pending.lastError = `SMSC says not bound: ${describeStatus(status)}`;
      if (!pending.done) this.#queue.unshift(part);
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

  /** Halve window and rate once per pause; the PDUs already out answer within it. */
  #throttle(status: number): void {
    const now = performance.now();
    if (now < this.#pausedUntil) return;
    this.#pausedUntil = now + this.#options.throttlePauseMs;
    this.#window = Math.max(1, Math.floor(this.#window / 2));
    if (this.#rate !== null) {
      this.#rate = Math.max(1, this.#rate / 2);
      this.#tokens = Math.min(this.#tokens, this.#bucketSize());
    }
    this.#successesSinceGrowth = 0;
    this.#log.warn(
      {
        status: describeStatus(status),
        window: this.#window,
        maxTps: this.#rate,
        pauseMs: this.#options.throttlePauseMs,
      },
      'SMSC throttling: slowing down',
    );
  }

  /** After a window's worth of accepted submits, one more slot and a tenth more rate. */
  #grow(): void {
    const { window, maxTps } = this.#options;
    if (this.#window >= window && this.#rate === maxTps) return;
    this.#successesSinceGrowth += 1;
    if (this.#successesSinceGrowth < this.#window) return;
    this.#successesSinceGrowth = 0;
    this.#window = Math.min(window, this.#window + 1);
    if (this.#rate !== null && maxTps !== null) {
      this.#rate = Math.min(maxTps, this.#rate + maxTps / 10);
    }
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
