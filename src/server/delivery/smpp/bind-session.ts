/**
 * The SMPP connector's bind: one transceiver session to the SMSC, bound, kept alive with
 * enquire_link, and rebound with capped exponential backoff when it drops. It answers the
 * session-level requests itself (enquire_link, unbind…) and hands deliver_sm to its owner.
 */
import smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import type { DeliveryLogger } from '../types.ts';
import { describeStatus } from './status.ts';

export interface BindOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType: string;
  /** Keep-alive period. */
  enquireLinkMs: number;
  /** How long to wait for bind_resp, enquire_link_resp, and an unbind's answer (≤ 2 s). */
  responseTimeoutMs: number;
  /** First rebind delay, doubled on each failure up to reconnectMaxMs. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
  logger: DeliveryLogger;
}

/** What the bind tells its owner (the connector's submit bookkeeping). */
export interface BindEvents {
  /** Parts waiting to be sent (logged when bound). */
  waiting(): number;
  /** Bound: send what waits. */
  bound(): void;
  /** The session closed: take back the PDUs outstanding on it; how many there were. */
  dropped(): number;
  /** A deliver_sm (a receipt, or a mobile-originated message): answer it. */
  deliverSm(session: Session, pdu: PDU): void;
}

export class BindSession {
  readonly #options: BindOptions;
  readonly #events: BindEvents;
  readonly #log: DeliveryLogger;

  #session: Session | null = null;
  #bound = false;
  #closing = false;
  #lastBindError: string | null = null;
  #reconnectAttempt = 0;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #bindTimer: NodeJS.Timeout | null = null;
  #enquireTimer: NodeJS.Timeout | null = null;
  #enquireDeadline: NodeJS.Timeout | null = null;

  constructor(options: BindOptions, events: BindEvents) {
    this.#options = options;
    this.#events = events;
    this.#log = options.logger;
    this.#connect();
  }

  /** The current session (bound or not), null between a drop and the next connect. */
  get session(): Session | null {
    return this.#session;
  }

  isUp(): boolean {
    return this.#bound;
  }

  /** Why the SMSC cannot be reached now; null while bound. */
  unavailableReason(): string | null {
    if (this.#bound) return null;
    return `SMSC unavailable${this.#lastBindError ? `: ${this.#lastBindError}` : ''}`;
  }

  /** No more rebinds; a polite unbind, cut off if unanswered. Resolves once the socket closed. */
  close(): Promise<void> {
    this.#closing = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    const session = this.#session;
    return new Promise<void>((resolve) => {
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
  }

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
            resent: this.#events.waiting(),
          },
          'SMPP bound (transceiver)',
        );
        this.#startEnquireLink(session);
        this.#events.bound();
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
    const outstanding = this.#events.dropped();

    if (this.#closing) return;
    if (wasBound) {
      this.#log.warn(
        { systemId: this.#options.systemId, outstanding },
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

  #onPdu(session: Session, pdu: PDU): void {
    // Listeners run inside the library's socket read loop: nothing may throw out of here.
    try {
      if (pdu.isResponse()) return; // answered through the send callbacks
      switch (pdu.command) {
        case 'deliver_sm':
          this.#events.deliverSm(session, pdu);
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
}
