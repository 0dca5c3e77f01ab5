/**
 * A scriptable SMSC for tests and benches, built on the smpp package's own server: checks bind
 * credentials, answers submit_sm (after a delay, with scripted statuses, or never), sends
 * delivery receipts (also duplicated, or in the same write as and BEFORE the submit_sm_resp),
 * drops connections on demand, and records every submit with its text as the smpp library
 * decodes it (an implementation independent of ours).
 */
import smpp from 'smpp';
import type { PDU, Session } from 'smpp';

export interface ReceiptPlan {
  /** stat word of the receipt text: DELIVRD, UNDELIV, EXPIRED, REJECTD, ENROUTE… */
  stat: string;
  err?: string;
  /** After the submit_sm_resp (default 0 ms); ignored with beforeResp. */
  delayMs?: number;
  /** Send the same receipt twice. */
  duplicate?: boolean;
  /** Write the receipt and then the submit_sm_resp in ONE socket write. */
  beforeResp?: boolean;
  /** 'text' (default): receipt text only; 'tlv': TLVs only; 'both'. */
  format?: 'text' | 'tlv' | 'both';
}

export interface SubmitPlan {
  /** command_status of the submit_sm_resp (default 0). */
  status?: number;
  /** Answer after this long (default: the SMSC's answerDelayMs). */
  delayMs?: number;
  /** Never answer this submit. */
  noAnswer?: boolean;
  /** Receipt for an accepted submit (default: the SMSC's receipt setting). */
  receipt?: ReceiptPlan | null;
}

export interface ReceivedSubmit {
  session: number;
  sequence: number;
  receivedAt: number;
  sourceAddr: string;
  sourceTon: number;
  sourceNpi: number;
  destinationAddr: string;
  destTon: number;
  destNpi: number;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /**
   * validity_period, as the smpp library decodes it: a relative period becomes the Date it
   * ends (counted from the decoding); null when the submit has none.
   */
  validityPeriod: Date | string | null;
  /** The concatenation header, when there is one (8-bit or 16-bit reference). */
  udh: { reference: number; total: number; number: number } | null;
  /** short_message without UDH, decoded by the smpp library from data_coding. */
  text: string;
  status: number | null;
  messageId: string | null;
}

export interface SmscOptions {
  systemId?: string;
  password?: string;
  answerDelayMs?: number;
  receipt?: ReceiptPlan | null;
  answerEnquireLink?: boolean;
  messageIdPrefix?: string;
  /** Port to listen on (default: any free one), e.g. to restart an SMSC where it was. */
  port?: number;
  /**
   * Store and forward receipts as real SMSCs do: a receipt not acknowledged (connection gone,
   * or answered with an error) is sent again to the next bind (default false).
   */
  redeliverReceipts?: boolean;
}

export interface TestSmsc {
  readonly port: number;
  readonly host: string;
  /** Mutable: later binds and submits follow the new values. */
  options: Required<
    Omit<SmscOptions, 'receipt' | 'port' | 'redeliverReceipts'>
  > & {
    receipt: ReceiptPlan | null;
  };
  /** Plans for the next submits, in order; afterwards the defaults apply. */
  script(...plans: SubmitPlan[]): void;
  readonly submits: ReceivedSubmit[];
  readonly binds: {
    systemId: string;
    password: string;
    accepted: boolean;
    at: number;
  }[];
  readonly enquireLinks: number;
  /** Every PDU received, by command name (bind_transceiver, submit_sm, deliver_sm_resp…). */
  readonly pduCounts: Record<string, number>;
  /** deliver_sm_resp statuses by receipt message id, in arrival order. */
  readonly receiptAnswers: { messageId: string; status: number }[];
  /** submit_sm received and not answered yet, now and at most. */
  readonly outstanding: number;
  readonly maxOutstanding: number;
  readonly sessionCount: number;
  /** Sends a receipt for a message id on every bound session. */
  sendReceipt(messageId: string, plan: ReceiptPlan): void;
  /** Sends any deliver_sm (mobile-originated, garbage) on every bound session. */
  sendDeliverSm(fields: Record<string, unknown>): void;
  /** Cuts every connection (no unbind). */
  drop(): void;
  close(): Promise<void>;
}

/** Texts of several parts joined by their concatenation reference, in part order. */
export function reassemble(submits: ReceivedSubmit[]): string[] {
  const messages = new Map<string, ReceivedSubmit[]>();
  for (const submit of submits) {
    const key = submit.udh
      ? `ref:${submit.udh.reference}`
      : `single:${submit.session}:${submit.sequence}`;
    messages.set(key, [...(messages.get(key) ?? []), submit]);
  }
  return [...messages.values()].map((parts) =>
    parts
      .sort((a, b) => (a.udh?.number ?? 0) - (b.udh?.number ?? 0))
      .map((p) => p.text)
      .join(''),
  );
}

function smppDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    two(date.getUTCFullYear() % 100) +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes())
  );
}

const MESSAGE_STATE: Record<string, number> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};

function readUdh(udh: Buffer[] | undefined): ReceivedSubmit['udh'] {
  for (const element of udh ?? []) {
    if (element[0] === 0x00 && element[1] === 3) {
      return {
        reference: element[2]!,
        total: element[3]!,
        number: element[4]!,
      };
    }
    if (element[0] === 0x08 && element[1] === 4) {
      return {
        reference: element.readUInt16BE(2),
        total: element[4]!,
        number: element[5]!,
      };
    }
  }
  return null;
}

export async function startSmsc({
  port = 0,
  redeliverReceipts = false,
  ...options
}: SmscOptions = {}): Promise<TestSmsc> {
  const settings: TestSmsc['options'] = {
    systemId: 'test',
    password: 'secret',
    answerDelayMs: 0,
    receipt: null,
    answerEnquireLink: true,
    messageIdPrefix: 'S',
    ...options,
  };
  const plans: SubmitPlan[] = [];
  const submits: ReceivedSubmit[] = [];
  const binds: TestSmsc['binds'] = [];
  const receiptAnswers: TestSmsc['receiptAnswers'] = [];
  const bound = new Set<Session>();
  const outstandingBySession = new Map<Session, number>();
  const timers = new Set<NodeJS.Timeout>();
  let enquireLinks = 0;
  const pduCounts: Record<string, number> = {};
  let maxOutstanding = 0;
  let sessionCounter = 0;
  let idCounter = 0;
  const receiptIds = new Map<string, string>();
  /** Receipts sent and not yet acknowledged, by `${session}:${sequence}`; and those to resend. */
  const awaitingAck = new Map<
    string,
    { messageId: string; plan: ReceiptPlan }
  >();
  const toRedeliver: { messageId: string; plan: ReceiptPlan }[] = [];

  const outstanding = () =>
    [...outstandingBySession.values()].reduce((a, b) => a + b, 0);

  const later = (ms: number, run: () => void) => {
    if (ms <= 0) return run();
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  function receiptPdu(session: Session, messageId: string, plan: ReceiptPlan) {
    const format = plan.format ?? 'text';
    const now = smppDate(new Date());
    const delivered = plan.stat === 'DELIVRD' ? '001' : '000';
    const text =
      `id:${messageId} sub:001 dlvrd:${delivered} submit date:${now} ` +
      `done date:${now} stat:${plan.stat} err:${plan.err ?? '000'} text:`;
    const fields: Record<string, unknown> = {
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: '447700900123',
      esm_class: 0x04,
      data_coding: 0,
      short_message:
        format === 'tlv' ? Buffer.alloc(0) : Buffer.from(text, 'latin1'),
      sequence_number: ++session.sequence,
    };
    receiptIds.set(
      `${sessionIdOf(session)}:${fields.sequence_number}`,
      messageId,
    );
    if (format !== 'text') {
      fields.receipted_message_id = messageId;
      fields.message_state = MESSAGE_STATE[plan.stat] ?? 7;
    }
    return new smpp.PDU('deliver_sm', fields);
  }

  function sendReceiptOn(
    session: Session,
    messageId: string,
    plan: ReceiptPlan,
  ) {
    const copies = plan.duplicate ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      if (session.socket.writable) {
        const pdu = receiptPdu(session, messageId, plan);
        if (redeliverReceipts) {
          awaitingAck.set(`${sessionIdOf(session)}:${pdu.sequence_number}`, {
            messageId,
            plan,
          });
        }
        session.send(pdu);
      } else if (redeliverReceipts && i === 0) {
        toRedeliver.push({ messageId, plan });
      }
    }
  }

  function onSubmit(session: Session, sessionId: number, pdu: PDU) {
    const plan: SubmitPlan = plans.shift() ?? {};
    const message = pdu.short_message as {
      udh?: Buffer[];
      message: string | Buffer;
    };
    const submit: ReceivedSubmit = {
      session: sessionId,
      sequence: pdu.sequence_number,
      receivedAt: performance.now(),
      sourceAddr: pdu.source_addr,
      sourceTon: pdu.source_addr_ton,
      sourceNpi: pdu.source_addr_npi,
      destinationAddr: pdu.destination_addr,
      destTon: pdu.dest_addr_ton,
      destNpi: pdu.dest_addr_npi,
      esmClass: pdu.esm_class,
      dataCoding: pdu.data_coding,
      registeredDelivery: pdu.registered_delivery,
      validityPeriod: pdu.validity_period || null,
      udh: readUdh(message.udh),
      text: Buffer.isBuffer(message.message)
        ? message.message.toString('latin1')
        : message.message,
      status: null,
      messageId: null,
    };
    submits.push(submit);
    outstandingBySession.set(
      session,
      (outstandingBySession.get(session) ?? 0) + 1,
    );
    maxOutstanding = Math.max(maxOutstanding, outstanding());
    if (plan.noAnswer) return;

    later(plan.delayMs ?? settings.answerDelayMs, () => {
      if (!session.socket.writable) return;
      const status = plan.status ?? 0;
      const messageId =
        status === 0
          ? `${settings.messageIdPrefix}${(++idCounter).toString(16).padStart(8, '0')}`
          : null;
      submit.status = status;
      submit.messageId = messageId;
      outstandingBySession.set(
        session,
        (outstandingBySession.get(session) ?? 1) - 1,
      );
      const resp = pdu.response(
        status === 0 ? { message_id: messageId } : { command_status: status },
      );
      const receipt =
        plan.receipt === undefined ? settings.receipt : plan.receipt;
      if (!messageId || !receipt) {
        session.send(resp);
        return;
      }
      if (receipt.beforeResp) {
        // One write: the ESME reads both PDUs at once and handles the receipt first.
        const copies = receipt.duplicate ? 2 : 1;
        const buffers: Buffer[] = [];
        for (let i = 0; i < copies; i++) {
          buffers.push(receiptPdu(session, messageId, receipt).toBuffer());
        }
        session.socket.write(Buffer.concat([...buffers, resp.toBuffer()]));
        return;
      }
      session.send(resp);
      later(receipt.delayMs ?? 0, () =>
        sendReceiptOn(session, messageId, receipt),
      );
    });
  }

  const sessionIds = new WeakMap<Session, number>();
  const sessionIdOf = (session: Session) => sessionIds.get(session) ?? 0;

  const server = smpp.createServer((session) => {
    const sessionId = ++sessionCounter;
    sessionIds.set(session, sessionId);
    session.socket.setNoDelay(true);
    session.on('error', () => session.destroy());
    session.on('pdu', (pdu: PDU) => {
      pduCounts[pdu.command] = (pduCounts[pdu.command] ?? 0) + 1;
    });
    session.on('close', () => {
      for (const [key, receipt] of awaitingAck) {
        if (key.startsWith(`${sessionId}:`)) {
          awaitingAck.delete(key);
          toRedeliver.push(receipt);
        }
      }
      bound.delete(session);
      outstandingBySession.delete(session);
    });
    session.on('bind_transceiver', (pdu: PDU) => {
      const accepted =
        pdu.system_id === settings.systemId &&
        pdu.password === settings.password;
      binds.push({
        systemId: pdu.system_id,
        password: pdu.password,
        accepted,
        at: performance.now(),
      });
      if (!accepted) {
        session.send(
          pdu.response({ command_status: smpp.errors.ESME_RBINDFAIL! }),
        );
        session.close();
        return;
      }
      bound.add(session);
      session.send(pdu.response({ system_id: 'test-smsc' }));
      for (const receipt of toRedeliver.splice(0)) {
        sendReceiptOn(session, receipt.messageId, {
          ...receipt.plan,
          duplicate: false,
        });
      }
    });
    session.on('submit_sm', (pdu: PDU) => {
      if (!bound.has(session)) {
        session.send(
          pdu.response({ command_status: smpp.errors.ESME_RINVBNDSTS! }),
        );
        return;
      }
      onSubmit(session, sessionId, pdu);
    });
    session.on('deliver_sm_resp', (pdu: PDU) => {
      const key = `${sessionId}:${pdu.sequence_number}`;
      const awaited = awaitingAck.get(key);
      awaitingAck.delete(key);
      if (awaited && pdu.command_status !== 0) toRedeliver.push(awaited);
      receiptAnswers.push({
        messageId:
          receiptIds.get(`${sessionId}:${pdu.sequence_number}`) ??
          `#${pdu.sequence_number}`,
        status: pdu.command_status,
      });
    });
    session.on('enquire_link', (pdu: PDU) => {
      enquireLinks += 1;
      if (settings.answerEnquireLink) session.send(pdu.response());
    });
    session.on('unbind', (pdu: PDU) => {
      bound.delete(session);
      session.send(pdu.response());
      session.close();
    });
  });

  await new Promise<void>((resolve) =>
    server.listen(port, '127.0.0.1', resolve),
  );
  const address = server.address();
  if (!address || typeof address === 'string')
    throw new Error('SMSC has no port');

  return {
    host: '127.0.0.1',
    port: address.port,
    options: settings,
    script: (...next) => void plans.push(...next),
    submits,
    binds,
    pduCounts,
    receiptAnswers,
    get enquireLinks() {
      return enquireLinks;
    },
    get outstanding() {
      return outstanding();
    },
    get maxOutstanding() {
      return maxOutstanding;
    },
    get sessionCount() {
      return bound.size;
    },
    sendReceipt(messageId, plan) {
      for (const session of bound) sendReceiptOn(session, messageId, plan);
    },
    sendDeliverSm(fields) {
      for (const session of bound) {
        session.send(new smpp.PDU('deliver_sm', { ...fields }));
      }
    },
    drop() {
      for (const session of server.sessions) session.destroy();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const session of server.sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
