import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { countSms } from '../../../shared/sms.ts';
import { nothingWithin } from '../../../../tests/support/eventually.ts';
import {
  reassemble,
  startSmsc,
  type SmscOptions,
  type TestSmsc,
} from '../../../../tests/support/smsc.ts';
import type { InboundPart } from '../../inbound/types.ts';
import type {
  InboundReceivingConnector,
  OutgoingSms,
  Receipt,
  ReceivingConnector,
} from '../types.ts';
import {
  createSmppConnector,
  relativeValidityPeriod,
  type SmppConnectorOptions,
} from './connector.ts';

const PASSWORD = 'pa55-word!';

let smsc: TestSmsc | undefined;
let connector: InboundReceivingConnector | undefined;
let logLines: string[] = [];

afterEach(async () => {
  await connector?.close();
  await smsc?.close();
  // Whatever happened in the test, the password never reached the log.
  expect(logLines.join('\n')).not.toContain(PASSWORD);
  expect(logLines.join('\n')).not.toContain('wrong-password');
  connector = smsc = undefined;
  logLines = [];
});

async function setUp(
  smscOptions: SmscOptions = {},
  connectorOptions: Partial<SmppConnectorOptions> = {},
) {
  smsc = await startSmsc({
    systemId: 'acme',
    password: PASSWORD,
    ...smscOptions,
  });
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );
  connector = createSmppConnector({
    host: smsc.host,
    port: smsc.port,
    systemId: 'acme',
    password: PASSWORD,
    systemType: '',
    window: 10,
    logger,
    enquireLinkMs: 5_000,
    responseTimeoutMs: 2_000,
    reconnectMinMs: 20,
    reconnectMaxMs: 200,
    pendingTimeoutMs: 5_000,
    throttlePauseMs: 100,
    ...connectorOptions,
  });
  return { smsc, connector };
}

let counter = 0;
function sms(text: string, fields: Partial<OutgoingSms> = {}): OutgoingSms {
  return {
    messageId: `m${++counter}`,
    from: 'Skyline',
    to: '+447700900001',
    text,
    encoding: countSms(text).encoding,
    ...fields,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How the tests wait for the SMSC fake, which answers within milliseconds. */
const SOON = { timeout: 5_000, interval: 5 };

describe('SMPP connector: encoding on the wire', () => {
  it('sends GSM-7 as data_coding 0 with escapes the SMSC decodes back', async () => {
    const { smsc, connector } = await setUp();
    const text = 'Price: 5€ {ok} [x] ~^|\\ @£$¥ ÄÖ_§ Ω\nend';
    const outcome = await connector.submit(sms(text));
    expect(outcome).toEqual({
      kind: 'submitted',
      providerMessageIds: [smsc.submits[0]!.messageId],
    });
    const [submit] = smsc.submits;
    expect(submit).toMatchObject({
      dataCoding: 0,
      esmClass: 0,
      registeredDelivery: 1,
      validityPeriod: null,
      sourceAddr: 'Skyline',
      sourceTon: 5,
      sourceNpi: 0,
      destinationAddr: '447700900001',
      destTon: 1,
      destNpi: 1,
      udh: null,
      text,
    });
  });

  it('carries MESSAGE_VALIDITY_SECONDS as a relative validity_period', async () => {
    const { smsc, connector } = await setUp({}, { validitySeconds: 172_800 });
    const sent = Date.now();
    expect((await connector.submit(sms('soon or never'))).kind).toBe(
      'submitted',
    );
    // The SMSC reads "000002000000000R" as the moment 2 days after it got the submit.
    const validity = smsc.submits[0]!.validityPeriod;
    expect(validity).toBeInstanceOf(Date);
    const ends = (validity as Date).getTime() - sent;
    expect(ends).toBeGreaterThanOrEqual(172_800_000 - 1_000);
    expect(ends).toBeLessThanOrEqual(172_800_000 + 5_000);
  });

  it('writes relative validity periods as YYMMDDhhmmsstnnR', () => {
    expect(relativeValidityPeriod(172_800)).toBe('000002000000000R');
    expect(relativeValidityPeriod(3)).toBe('000000000003000R');
    expect(relativeValidityPeriod(90_061)).toBe('000001010101000R');
    expect(relativeValidityPeriod(200 * 86_400)).toBe('000099235959000R');
  });

  it('sends numeric senders as TON 1 NPI 1 without +', async () => {
    const { smsc, connector } = await setUp();
    await connector.submit(
      sms('hi', { from: '+4915112345678', to: '4917000' }),
    );
    expect(smsc.submits[0]).toMatchObject({
      sourceAddr: '4915112345678',
      sourceTon: 1,
      sourceNpi: 1,
      destinationAddr: '4917000',
    });
  });

  it('sends UCS-2 as data_coding 8 with the emoji intact', async () => {
    const { smsc, connector } = await setUp();
    const text = 'Привет, ça va? 😀';
    const outcome = await connector.submit(sms(text));
    expect(outcome.kind).toBe('submitted');
    expect(smsc.submits[0]).toMatchObject({ dataCoding: 8, esmClass: 0, text });
  });

  it('sends a 3-part message with one reference, numbered 1/3 2/3 3/3', async () => {
    const { smsc, connector } = await setUp();
    const text = `${'a'.repeat(150)}{€}${'b'.repeat(150)}[]${'c'.repeat(30)}`;
    expect(countSms(text).segments).toBe(3);
    const outcome = await connector.submit(sms(text));
    expect(outcome.kind).toBe('submitted');
    expect(smsc.submits).toHaveLength(3);
    if (outcome.kind !== 'submitted') return;
    expect(outcome.providerMessageIds).toEqual(
      smsc.submits.map((s) => s.messageId),
    );
    const reference = smsc.submits[0]!.udh!.reference;
    expect(smsc.submits.map((s) => [s.esmClass, s.dataCoding, s.udh])).toEqual(
      [1, 2, 3].map((number) => [0x40, 0, { reference, total: 3, number }]),
    );
    // '{' fits part 1 whole (151 + 2 > 153 would not): no escape pair is ever cut
    expect(smsc.submits.every((s) => !s.text.includes('\x1b'))).toBe(true);
    expect(reassemble(smsc.submits)).toEqual([text]);

    // The next long message gets another reference; UCS-2 splits at 67 units.
    const ucs = `${'ж'.repeat(66)}😀${'я'.repeat(10)}`;
    await connector.submit(sms(ucs));
    const second = smsc.submits.slice(3);
    expect(second.map((s) => s.udh?.number)).toEqual([1, 2]);
    expect(second[0]!.udh!.reference).not.toBe(reference);
    expect(second[0]!.text).toBe('ж'.repeat(66));
    expect(reassemble(second)).toEqual([ucs]);
  });

  it('refuses what it cannot put on the wire, without asking the SMSC', async () => {
    const { smsc, connector } = await setUp();
    expect(await connector.submit(sms('hi', { to: 'not a number' }))).toEqual({
      kind: 'refused',
      error: 'invalid destination for SMPP: "not a number"',
    });
    expect(
      await connector.submit(sms('hi', { from: 'A much too long sender' })),
    ).toMatchObject({
      kind: 'refused',
    });
    expect(await connector.submit(sms('ça', { encoding: 'GSM-7' }))).toEqual({
      kind: 'refused',
      error: 'text is not GSM-7: U+00E7',
    });
    expect(smsc.submits).toHaveLength(0);
  });
});

describe('SMPP connector: receipts', () => {
  function collect(connector: ReceivingConnector) {
    const receipts: Receipt[] = [];
    connector.onReceipt(async (receipt) => {
      receipts.push(receipt);
    });
    return receipts;
  }

  it('maps DELIVRD, UNDELIV, EXPIRED, REJECTD (text or TLV) and ignores ENROUTE', async () => {
    // '_' in the ids: the library reads data_coding 0 as GSM, the connector recovers the octets
    const { smsc, connector } = await setUp({ messageIdPrefix: 'id_' });
    const receipts = collect(connector);
    smsc.script(
      { receipt: { stat: 'DELIVRD' } },
      { receipt: { stat: 'UNDELIV', err: '034' } },
      { receipt: { stat: 'EXPIRED' } },
      { receipt: { stat: 'REJECTD', format: 'tlv' } },
      { receipt: { stat: 'ENROUTE' } },
      { receipt: { stat: 'DELETED', format: 'both' } },
    );
    const outcomes = [];
    for (let i = 0; i < 6; i++)
      outcomes.push(await connector.submit(sms(`m ${i}`)));
    const ids = outcomes.map((o) =>
      o.kind === 'submitted' ? o.providerMessageIds[0] : '',
    );
    expect(ids[0]).toMatch(/^id_/);
    await expect.poll(() => smsc.receiptAnswers.length, SOON).toBe(6);
    expect(receipts).toEqual([
      { providerMessageId: ids[0], state: 'DELIVERED', error: null },
      {
        providerMessageId: ids[1],
        state: 'UNDELIVERED',
        error: 'UNDELIV err:034',
      },
      { providerMessageId: ids[2], state: 'EXPIRED', error: 'EXPIRED' },
      { providerMessageId: ids[3], state: 'REJECTED', error: 'REJECTD' },
      { providerMessageId: ids[5], state: 'UNDELIVERED', error: 'DELETED' },
    ]);
    expect(smsc.receiptAnswers.map((a) => a.status)).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);
  });

  it('hands a duplicate receipt over twice and keeps the bind', async () => {
    const { smsc, connector } = await setUp({
      receipt: { stat: 'DELIVRD', duplicate: true },
    });
    const receipts = collect(connector);
    const first = await connector.submit(sms('one'));
    await expect.poll(() => receipts.length, SOON).toBe(2);
    expect(receipts[0]).toEqual(receipts[1]);
    expect(first).toEqual({
      kind: 'submitted',
      providerMessageIds: [receipts[0]!.providerMessageId],
    });
    expect((await connector.submit(sms('two'))).kind).toBe('submitted');
    await expect.poll(() => receipts.length, SOON).toBe(4);
    expect(smsc.binds).toHaveLength(1);
    expect(smsc.receiptAnswers.every((a) => a.status === 0)).toBe(true);
  });

  it('hands over a receipt that arrives before its submit_sm_resp', async () => {
    const { smsc, connector } = await setUp({
      receipt: { stat: 'DELIVRD', beforeResp: true },
    });
    const events: string[] = [];
    connector.onReceipt(async (receipt) => {
      events.push(`receipt ${receipt.providerMessageId}`);
    });
    const outcome = await connector.submit(sms('fast'));
    events.push(
      `submitted ${outcome.kind === 'submitted' ? outcome.providerMessageIds[0] : '?'}`,
    );
    const id = smsc.submits[0]!.messageId;
    // Read in one go, the receipt reaches the handler first: the lead must keep it.
    expect(events).toEqual([`receipt ${id}`, `submitted ${id}`]);
    await expect.poll(() => smsc.receiptAnswers.length, SOON).toBe(1);
    expect(smsc.receiptAnswers[0]!.status).toBe(0);
  });

  it('answers every deliver_sm: handler failure, garbage, mobile-originated', async () => {
    const { smsc, connector } = await setUp();
    let calls = 0;
    connector.onReceipt(async () => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
    });
    const outcome = await connector.submit(sms('x'));
    const id =
      outcome.kind === 'submitted' ? outcome.providerMessageIds[0]! : '';
    smsc.sendReceipt(id, { stat: 'DELIVRD' });
    await expect.poll(() => smsc.receiptAnswers.length, SOON).toBe(1);
    // A failed handler asks the SMSC to deliver the receipt again later.
    expect(smsc.receiptAnswers[0]).toEqual({ messageId: id, status: 0x64 });
    smsc.sendReceipt(id, { stat: 'DELIVRD' });
    smsc.sendReceipt('unknown-id', { stat: 'UNDELIV' });
    smsc.sendDeliverSm({
      esm_class: 0x04,
      short_message: Buffer.from('garbage'),
    });
    await expect.poll(() => smsc.receiptAnswers.length, SOON).toBe(4);
    expect(smsc.receiptAnswers.slice(1).map((a) => a.status)).toEqual([
      0, 0, 0,
    ]);
    // An inbound message with no inbound handler set: the SMSC keeps it and offers it again.
    smsc.sendDeliverSm({
      esm_class: 0,
      source_addr: '447700900123',
      destination_addr: '447700900555',
      short_message: Buffer.from('STOP'),
    });
    await expect.poll(() => smsc.receiptAnswers.length, SOON).toBe(5);
    expect(smsc.receiptAnswers[4]!.status).toBe(0x64);
    expect(calls).toBe(3); // the failed one, its redelivery, the unknown id
    expect(logLines.join('\n')).toContain('database down');
    expect((await connector.submit(sms('still bound'))).kind).toBe('submitted');
    expect(smsc.binds).toHaveLength(1);
  });
});

describe('SMPP connector: inbound messages', () => {
  const FROM = '447700900123';
  const TO = '447700900555';
  const ucs2 = (text: string) => Buffer.from(text, 'utf16le').swap16();
  /** The deliver_sm_resp statuses, in the order the SMSC got them. */
  const statuses = (smsc: TestSmsc) => smsc.receiptAnswers.map((a) => a.status);

  /** Bound: the SMSC sends deliver_sm on bound sessions only. */
  async function setUpBound() {
    const set = await setUp();
    await expect.poll(() => set.connector.isUp?.(), SOON).toBe(true);
    return set;
  }

  function collect(connector: InboundReceivingConnector) {
    const parts: InboundPart[] = [];
    connector.onInbound(async (part) => {
      parts.push(part);
    });
    return parts;
  }

  it('hands over a message in each coding and acknowledges it', async () => {
    const { smsc, connector } = await setUpBound();
    const parts = collect(connector);
    const mo = (data_coding: number, short_message: unknown) =>
      smsc.sendDeliverSm({
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: `+${FROM}`,
        destination_addr: TO,
        data_coding,
        short_message,
      });
    mo(0, { message: 'Yes {please} 5€ @ 10:30_' });
    mo(3, Buffer.from('Grüße, señor', 'latin1'));
    mo(8, ucs2('Да 👍'));
    await expect.poll(() => parts.length, SOON).toBe(3);
    const base = {
      method: 'MELROSE_SMPP',
      providerMessageId: null,
      from: FROM,
      to: TO,
      concat: null,
    };
    expect(parts).toEqual([
      { ...base, body: 'Yes {please} 5€ @ 10:30_', encoding: 'GSM-7' },
      { ...base, body: 'Grüße, señor', encoding: 'Latin-1' },
      { ...base, body: 'Да 👍', encoding: 'UCS-2' },
    ]);
    await expect.poll(() => statuses(smsc), SOON).toEqual([0, 0, 0]);
    // The correspondence stays out of the log.
    expect(logLines.join('\n')).not.toContain('please');
  });

  it('hands over each part of concatenated messages as it comes (UDH 8/16-bit, sar TLVs)', async () => {
    const { smsc, connector } = await setUpBound();
    const parts = collect(connector);
    const udh8 = (part: number) => Buffer.from([5, 0x00, 3, 0x2a, 2, part]);
    const udh16 = (part: number) =>
      Buffer.from([6, 0x08, 4, 0x01, 0x02, 2, part]);
    const send = (fields: Record<string, unknown>) =>
      smsc.sendDeliverSm({
        source_addr: FROM,
        destination_addr: TO,
        ...fields,
      });
    // Out of order: part 2 before part 1.
    send({ data_coding: 0, short_message: { udh: udh8(2), message: 'world' } });
    send({
      data_coding: 0,
      short_message: { udh: udh8(1), message: 'hello ' },
    });
    send({
      esm_class: 0x40,
      data_coding: 8,
      short_message: Buffer.concat([udh16(1), ucs2('при')]),
    });
    send({
      data_coding: 3,
      short_message: Buffer.from('vet', 'latin1'),
      sar_msg_ref_num: 0x0102,
      sar_total_segments: 2,
      sar_segment_seqnum: 2,
    });
    await expect.poll(() => parts.length, SOON).toBe(4);
    expect(parts.map((p) => [p.body, p.concat])).toEqual([
      ['world', { reference: 0x2a, total: 2, part: 2 }],
      ['hello ', { reference: 0x2a, total: 2, part: 1 }],
      ['при', { reference: 0x0102, total: 2, part: 1 }],
      ['vet', { reference: 0x0102, total: 2, part: 2 }],
    ]);
    await expect.poll(() => statuses(smsc), SOON).toEqual([0, 0, 0, 0]);
  });

  it('answers only once the handler has stored the message; 0x64 when it failed', async () => {
    const { smsc, connector } = await setUpBound();
    let release!: () => void;
    const stored = new Promise<void>((resolve) => (release = resolve));
    const bodies: string[] = [];
    connector.onInbound(async (part) => {
      bodies.push(part.body);
      if (part.body === 'slow') await stored;
      if (part.body === 'fails') throw new Error('database down');
    });
    const send = (body: string) =>
      smsc.sendDeliverSm({
        source_addr: FROM,
        destination_addr: TO,
        data_coding: 3,
        short_message: Buffer.from(body, 'latin1'),
      });
    send('slow');
    send('fails');
    send('fast');
    // One connection keeps the order: had 'slow' been answered at once, its answer came first.
    await expect.poll(() => statuses(smsc), SOON).toEqual([0x64, 0]);
    expect(bodies).toEqual(['slow', 'fails', 'fast']);
    release();
    await expect.poll(() => statuses(smsc), SOON).toEqual([0x64, 0, 0]);
    const sequence = (i: number) =>
      Number(smsc.receiptAnswers[i]!.messageId.slice(1));
    expect(sequence(2)).toBeLessThan(sequence(0));
    expect(logLines.join('\n')).toContain('database down');
    expect(logLines.join('\n')).not.toContain('fails"');
    expect(smsc.binds).toHaveLength(1);
  });

  it('answers what is being stored before it unbinds at close', async () => {
    const { smsc, connector } = await setUpBound();
    let release!: () => void;
    const stored = new Promise<void>((resolve) => (release = resolve));
    let called = false;
    connector.onInbound(async () => {
      called = true;
      await stored;
    });
    smsc.sendDeliverSm({
      source_addr: FROM,
      destination_addr: TO,
      data_coding: 3,
      short_message: Buffer.from('mid-stop'),
    });
    await expect.poll(() => called, SOON).toBe(true);
    const closed = connector.close();
    // The write takes its time: no unbind meanwhile (it would cut the answer off).
    await nothingWithin(300, () => expect(smsc.pduCounts.unbind ?? 0).toBe(0));
    release();
    await closed;
    expect(statuses(smsc)).toEqual([0]);
    expect(smsc.pduCounts.unbind).toBe(1);
  });

  it('reads a message_payload of 40,000 octets without dropping the bind', async () => {
    const { smsc, connector } = await setUpBound();
    const parts = collect(connector);
    smsc.sendDeliverSm({
      source_addr: FROM,
      destination_addr: TO,
      data_coding: 3,
      message_payload: Buffer.alloc(40_000, 'x'),
    });
    await expect.poll(() => statuses(smsc), SOON).toEqual([0]);
    expect(parts.map((p) => p.body.length)).toEqual([40_000]);
    expect((await connector.submit(sms('still bound'))).kind).toBe('submitted');
    expect(smsc.binds).toHaveLength(1);
  });

  it('refuses for good what can never be read, keeping the bind', async () => {
    const { smsc, connector } = await setUpBound();
    const parts = collect(connector);
    smsc.sendDeliverSm({
      source_addr: FROM,
      destination_addr: TO,
      data_coding: 4,
      short_message: Buffer.from('binary secret'),
    });
    smsc.sendDeliverSm({
      source_addr: FROM,
      destination_addr: 'PROMO',
      data_coding: 3,
      short_message: Buffer.from('misaddressed secret'),
    });
    smsc.sendDeliverSm({
      source_addr: FROM,
      destination_addr: TO,
      data_coding: 3,
      short_message: Buffer.from('fine'),
    });
    await expect.poll(() => statuses(smsc), SOON).toEqual([0x65, 0x65, 0]);
    expect(parts.map((p) => p.body)).toEqual(['fine']);
    const log = logLines.join('\n');
    expect(log).toContain('data_coding 0x04 not taken');
    expect(log).toContain('destination_addr is not a number');
    expect(log).not.toContain('secret');
    expect((await connector.submit(sms('still bound'))).kind).toBe('submitted');
    expect(smsc.binds).toHaveLength(1);
  });
});

describe('SMPP connector: submit_sm_resp statuses', () => {
  it('slows down on throttling answers and still submits everything', async () => {
    const { smsc, connector } = await setUp(
      {},
      { window: 4, throttlePauseMs: 150 },
    );
    smsc.script({ status: 0x58 }, { status: 0x58 }, { status: 0x14 });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => connector.submit(sms(`t${i}`))),
    );
    expect(outcomes.every((o) => o.kind === 'submitted')).toBe(true);
    expect(smsc.submits).toHaveLength(9);
    expect(smsc.submits.slice(0, 3).map((s) => s.status)).toEqual([
      0x58, 0x58, 0x14,
    ]);
    // The first four went out together; after the throttling answers the bind paused.
    const pause = smsc.submits[4]!.receivedAt - smsc.submits[3]!.receivedAt;
    expect(pause).toBeGreaterThanOrEqual(130);
    // Every text reached the SMSC accepted exactly once.
    const accepted = smsc.submits
      .filter((s) => s.status === 0)
      .map((s) => s.text);
    expect(accepted.sort()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    expect(logLines.join('\n')).toContain('SMSC throttling: slowing down');
  });

  it('refuses on permanent errors, retries on transient ones', async () => {
    const { smsc, connector } = await setUp();
    smsc.script({ status: 0x0b }, { status: 0x45 }, { status: 0x08 });
    expect(await connector.submit(sms('a'))).toEqual({
      kind: 'refused',
      error: 'SMSC refused: 0x0b ESME_RINVDSTADR',
    });
    expect(await connector.submit(sms('b'))).toEqual({
      kind: 'refused',
      error: 'SMSC refused: 0x45 ESME_RSUBMITFAIL',
    });
    expect(await connector.submit(sms('c'))).toEqual({
      kind: 'retry',
      error: 'SMSC error 0x08 ESME_RSYSERR',
    });
    // A long message is submitted only if every part is accepted.
    smsc.script({}, { status: 0x0b }, {});
    const long = await connector.submit(sms('x'.repeat(400)));
    expect(long.kind).toBe('refused');
    expect(smsc.binds).toHaveLength(1);
  });

  it('resolves retry when the SMSC never answers a submit', async () => {
    const { smsc, connector } = await setUp({}, { responseTimeoutMs: 200 });
    smsc.script({ noAnswer: true });
    expect(await connector.submit(sms('lost'))).toEqual({
      kind: 'retry',
      error: 'no submit_sm_resp within 0.2 s',
    });
    // the slot is free again
    expect((await connector.submit(sms('next'))).kind).toBe('submitted');
  });
});

describe('SMPP connector: flow control', () => {
  it('never has more than `window` submits outstanding', async () => {
    const { smsc, connector } = await setUp(
      { answerDelayMs: 20 },
      { window: 3 },
    );
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, (_, i) => connector.submit(sms(`w${i}`))),
    );
    expect(outcomes.every((o) => o.kind === 'submitted')).toBe(true);
    expect(smsc.maxOutstanding).toBe(3);
  });

  it('keeps roughly to maxTps', async () => {
    const { smsc, connector } = await setUp({}, { window: 10, maxTps: 40 });
    const start = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => connector.submit(sms(`r${i}`))),
    );
    const seconds = (performance.now() - start) / 1000;
    expect(outcomes.every((o) => o.kind === 'submitted')).toBe(true);
    // 50 at 40/s with a burst of 2: about 1.2 s
    expect(seconds).toBeGreaterThan(1.0);
    expect(seconds).toBeLessThan(3);
    const times = smsc.submits.map((s) => s.receivedAt);
    for (const t of times) {
      const inHalfSecond = times.filter((u) => u >= t && u < t + 500).length;
      expect(inHalfSecond).toBeLessThanOrEqual(23);
    }
  });

  it("serves lanes in turn: a client's message queued behind another's backlog goes next (fair delivery)", async () => {
    const { smsc, connector } = await setUp({}, { window: 10, maxTps: 40 });
    const backlog = Array.from({ length: 40 }, (_, i) =>
      connector.submit(sms(`backlog ${i}`, { lane: 'client-a' })),
    );
    // The backlog is flowing (at 40/s it needs a second in all) when the other client's comes.
    await expect
      .poll(() => smsc.submits.length, SOON)
      .toBeGreaterThanOrEqual(4);
    const newcomer = connector.submit(sms('newcomer', { lane: 'client-b' }));
    expect((await newcomer).kind).toBe('submitted');
    const outcomes = await Promise.all(backlog);
    expect(outcomes.every((o) => o.kind === 'submitted')).toBe(true);
    const order = smsc.submits.map((s) => s.text);
    expect(order.filter((t) => t.startsWith('backlog'))).toHaveLength(40);
    // First in, first out it would have been the 41st; only what was already on its way (the
    // few sent before it came, at 40/s) went ahead of it.
    expect(order.indexOf('newcomer')).toBeLessThan(order.indexOf('backlog 10'));
  });
});

describe('SMPP connector: waits that are not tries', () => {
  it('answers unavailable soon when the bind is down, having sent nothing', async () => {
    const first = await setUp(
      {},
      { unboundWaitMs: 150, pendingTimeoutMs: 5_000 },
    );
    const connector = first.connector;
    await expect.poll(() => first.smsc.sessionCount, SOON).toBe(1);
    const port = first.smsc.port;
    await first.smsc.close();
    // The connector has seen its bind go.
    await expect
      .poll(() => logLines.join('\n'), { timeout: 5_000 })
      .toContain('SMPP bind lost');
    const start = performance.now();
    const outcome = await connector.submit(sms('nobody home'));
    expect(outcome.kind).toBe('unavailable');
    expect((outcome as { error: string }).error).toMatch(/^SMSC unavailable/);
    expect(performance.now() - start).toBeLessThan(1_000);
    // Back where it was: the next submit goes through.
    const again = await startSmsc({
      systemId: 'acme',
      password: PASSWORD,
      port,
    });
    smsc = again; // closed after the test
    await expect.poll(() => again.sessionCount, SOON).toBe(1);
    expect((await connector.submit(sms('back'))).kind).toBe('submitted');
  });

  it('a bind that comes up during the short wait gets the message sent', async () => {
    const { smsc, connector } = await setUp(
      { password: 'wrong-password' },
      { reconnectMinMs: 20, reconnectMaxMs: 40, unboundWaitMs: 300 },
    );
    await expect.poll(() => smsc.binds.length, SOON).toBeGreaterThanOrEqual(1);
    const pending = connector.submit(sms('just in time'));
    smsc.options.password = PASSWORD;
    smsc.options.answerDelayMs = 400; // answered after the short wait is over
    expect((await pending).kind).toBe('submitted');
  });

  it('a message held behind a low SMPP_MAX_TPS comes back busy, never as a failed try', async () => {
    const { smsc, connector } = await setUp(
      {},
      { maxTps: 2, pendingTimeoutMs: 700 },
    );
    await expect.poll(() => smsc.sessionCount, SOON).toBe(1);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => connector.submit(sms(`tps ${i}`))),
    );
    const kinds = outcomes.map((o) => o.kind);
    // 2 per second for 0.7 s: the first two go, the rest waited in our own queue.
    expect(
      kinds.filter((k) => k === 'submitted').length,
    ).toBeGreaterThanOrEqual(1);
    expect(kinds.filter((k) => k === 'busy').length).toBeGreaterThanOrEqual(3);
    expect(kinds).not.toContain('retry');
    expect(
      outcomes.find((o) => o.kind === 'busy') as { error: string },
    ).toMatchObject({ error: expect.stringMatching(/rate cap/) });
    // Nothing of a busy message reached the SMSC: queued again later, it is not a duplicate.
    await sleep(1_200);
    expect(smsc.submits).toHaveLength(
      kinds.filter((k) => k === 'submitted').length,
    );
  });
});

describe('SMPP connector: the bind', () => {
  it('keeps retrying a refused bind with backoff, and binds once the password is right', async () => {
    const { smsc, connector } = await setUp(
      { password: 'wrong-password' },
      { reconnectMinMs: 20, reconnectMaxMs: 160, pendingTimeoutMs: 400 },
    );
    await expect.poll(() => smsc.binds.length, SOON).toBeGreaterThanOrEqual(5);
    expect(smsc.binds.every((b) => !b.accepted && b.systemId === 'acme')).toBe(
      true,
    );
    const gaps = smsc.binds.slice(1).map((b, i) => b.at - smsc.binds[i]!.at);
    expect(gaps[3]!).toBeGreaterThan(gaps[0]! * 2);
    // Not a provider's answer about the message: the method is unavailable (no try spent).
    const outcome = await connector.submit(sms('waiting'));
    expect(outcome).toEqual({
      kind: 'unavailable',
      error: 'SMSC unavailable: bind refused: 0x0d ESME_RBINDFAIL',
    });
    smsc.options.password = PASSWORD;
    await expect.poll(() => smsc.sessionCount, SOON).toBe(1);
    expect((await connector.submit(sms('now'))).kind).toBe('submitted');
    expect(logLines.join('\n')).toContain('SMPP bind refused');
  });

  it('rebinds after a drop and resubmits what was outstanding', async () => {
    const { smsc, connector } = await setUp();
    smsc.script({ noAnswer: true }, { noAnswer: true }, { noAnswer: true });
    let settled = 0;
    const pending = ['d1', 'd2', 'd3'].map((text) =>
      connector.submit(sms(text)).finally(() => (settled += 1)),
    );
    await expect.poll(() => smsc.submits.length, SOON).toBe(3);
    smsc.drop();
    const outcomes = await Promise.all(pending);
    expect(outcomes.map((o) => o.kind)).toEqual([
      'submitted',
      'submitted',
      'submitted',
    ]);
    expect(smsc.binds).toHaveLength(2);
    expect(smsc.submits.map((s) => s.text)).toEqual([
      'd1',
      'd2',
      'd3',
      'd1',
      'd2',
      'd3',
    ]);
    expect(smsc.submits.slice(3).every((s) => s.session === 2)).toBe(true);
    expect(settled).toBe(3);
  });

  it('resends the parts of a long message with their reference after a drop', async () => {
    const { smsc, connector } = await setUp();
    smsc.script({}, { noAnswer: true });
    const text = 'q'.repeat(200);
    const pending = connector.submit(sms(text));
    await expect.poll(() => smsc.submits.length, SOON).toBe(2);
    smsc.drop();
    const outcome = await pending;
    // Part 1 was accepted before the drop; part 2 is sent again on the new bind.
    expect(outcome).toEqual({
      kind: 'submitted',
      providerMessageIds: [
        smsc.submits[0]!.messageId,
        smsc.submits[2]!.messageId,
      ],
    });
    expect(smsc.submits.map((s) => [s.session, s.udh?.number])).toEqual([
      [1, 1],
      [1, 2],
      [2, 2],
    ]);
    expect(smsc.submits[2]!.udh!.reference).toBe(
      smsc.submits[0]!.udh!.reference,
    );
    expect(reassemble([smsc.submits[0]!, smsc.submits[2]!])).toEqual([text]);
  });

  it('rebinds and resends when the SMSC says the bind is gone (ESME_RINVBNDSTS)', async () => {
    const { smsc, connector } = await setUp();
    smsc.script({ status: 0x04 });
    expect((await connector.submit(sms('again'))).kind).toBe('submitted');
    expect(smsc.binds).toHaveLength(2);
    expect(smsc.submits.map((s) => [s.session, s.status])).toEqual([
      [1, 0x04],
      [2, 0],
    ]);
  });

  it('keeps the link alive with enquire_link and rebinds when it goes unanswered', async () => {
    const { smsc } = await setUp(
      {},
      { enquireLinkMs: 40, responseTimeoutMs: 100 },
    );
    await expect.poll(() => smsc.enquireLinks, SOON).toBeGreaterThanOrEqual(3);
    expect(smsc.binds).toHaveLength(1);
    smsc.options.answerEnquireLink = false;
    await expect.poll(() => smsc.binds.length, SOON).toBe(2);
    smsc.options.answerEnquireLink = true;
  });

  it('closes politely: pending submits resolve retry, the SMSC sees the unbind', async () => {
    const { smsc, connector } = await setUp();
    smsc.script({ noAnswer: true });
    const pending = connector.submit(sms('late'));
    await expect.poll(() => smsc.submits.length, SOON).toBe(1);
    await connector.close();
    expect(await pending).toEqual({
      kind: 'retry',
      error: 'SMPP connector closed',
    });
    await expect.poll(() => smsc.sessionCount, SOON).toBe(0);
    expect(await connector.submit(sms('after'))).toMatchObject({
      kind: 'retry',
    });
    await sleep(50);
    expect(smsc.binds).toHaveLength(1);
  });
});
