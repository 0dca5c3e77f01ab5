// @also-on-pglite: the inbound writer's SQL (routing, joining parts, duplicates) runs on PGlite's own path.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import { smscBind } from '../../../support/fleet.ts';
import { createClient, registerUser } from '../../../support/seed.ts';
import { startSmsc, type TestSmsc } from '../../../support/smsc.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * Inbound SMS over the SMPP bind, end to end: the test SMSC (the smpp package's own server)
 * sends deliver_sm as an SMSC does, the server's bind reads them and the one inbound writer
 * stores them; the rows are read from inbound_messages (the read API is tested elsewhere).
 */
let smsc: TestSmsc;
let server: TestServer;

beforeAll(async () => {
  smsc = await startSmsc();
  // The sweep of overdue parts looks often: the 10-minute test moves its parts' time back.
  server = await startServer({ ...smscBind(smsc) }, { inboundSweepMs: 100 });
  // The SMSC sends deliver_sm on bound sessions only.
  await eventually(
    () => smsc.sessionCount,
    (n) => n === 1,
    { what: 'the SMPP bind' },
  );
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
});

const SOON = { timeout: 10_000, interval: 20 };
const ucs2 = (text: string) => Buffer.from(text, 'utf16le').swap16();
const query = <T>(sql: string, params: unknown[]) =>
  server.app.db.query<T & Record<string, unknown>>(sql, params);

interface Row {
  client_id: string;
  method: string;
  provider_message_id: string | null;
  from_number: string;
  to_number: string;
  body: string;
  encoding: string;
  segments: number;
  complete: boolean;
  keyword: string | null;
}

/** A client holding a number of its own, and what the SMSC sends to that number. */
async function numberHolder() {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  const number = `4477${randomInt(10_000_000, 99_999_999)}`;
  await query('INSERT INTO numbers (number, client_id) VALUES ($1, $2)', [
    number,
    client.id,
  ]);
  const rows = () =>
    query<Row>(
      `SELECT client_id, method, provider_message_id, from_number, to_number, body, encoding,
              segments, complete, keyword
         FROM inbound_messages WHERE to_number = $1 ORDER BY date_received, id`,
      [number],
    );
  return { client, number, rows };
}

/** A sample of the server's /metrics (loopback may scrape without a token). */
async function metric(line: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}
const STORED = 'sms_inbound_total{method="MELROSE_SMPP"}';
const UNROUTED = 'sms_inbound_unrouted_total';

/** One deliver_sm from a handset to `to`; its deliver_sm_resp status, once answered. */
async function mo(to: string, fields: Record<string, unknown>) {
  const before = smsc.receiptAnswers.length;
  smsc.sendDeliverSm({
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: '+447700900123',
    destination_addr: to,
    ...fields,
  });
  await expect
    .poll(() => smsc.receiptAnswers.length, SOON)
    .toBeGreaterThan(before);
  return smsc.receiptAnswers[before]!.status;
}

describe('inbound SMS over SMPP', () => {
  it('stores a single message in each coding for the number holder', async () => {
    const { client, number, rows } = await numberHolder();
    const stored = await metric(STORED);
    expect(
      await mo(number, {
        data_coding: 0,
        short_message: { message: 'Yes {please} 5€ @10_30' },
      }),
    ).toBe(0);
    expect(
      await mo(number, {
        data_coding: 3,
        short_message: Buffer.from('Grüße, señor', 'latin1'),
      }),
    ).toBe(0);
    expect(
      await mo(number, { data_coding: 8, short_message: ucs2('Да 👍 好') }),
    ).toBe(0);
    const base = {
      client_id: client.id,
      method: 'MELROSE_SMPP',
      provider_message_id: null,
      from_number: '447700900123',
      to_number: number,
      segments: 1,
      complete: true,
      keyword: null,
    };
    await expect.poll(rows, SOON).toEqual([
      { ...base, body: 'Yes {please} 5€ @10_30', encoding: 'GSM-7' },
      { ...base, body: 'Grüße, señor', encoding: 'Latin-1' },
      { ...base, body: 'Да 👍 好', encoding: 'UCS-2' },
    ]);
    expect(await metric(STORED)).toBe(stored + 3);
  });

  it('joins parts sent out of order: UDH 8-bit, UDH 16-bit, sar TLVs', async () => {
    const { number, rows } = await numberHolder();
    const udh8 = (part: number) => Buffer.from([5, 0x00, 3, 0x7e, 3, part]);
    const udh16 = (part: number) =>
      Buffer.from([6, 0x08, 4, 0xab, 0xcd, 2, part]);
    const gsm = ['First part, ', 'second {part}, ', 'third €.'];
    const statuses = [
      await mo(number, {
        data_coding: 0,
        short_message: { udh: udh8(3), message: gsm[2] },
      }),
      await mo(number, {
        data_coding: 0,
        short_message: { udh: udh8(1), message: gsm[0] },
      }),
    ];
    // Two parts of three: nothing stored yet.
    expect(await rows()).toEqual([]);
    statuses.push(
      await mo(number, {
        data_coding: 0,
        short_message: { udh: udh8(2), message: gsm[1] },
      }),
      await mo(number, {
        esm_class: 0x40,
        data_coding: 8,
        short_message: Buffer.concat([udh16(2), ucs2('мир 🌍')]),
      }),
      await mo(number, {
        esm_class: 0x40,
        data_coding: 8,
        short_message: Buffer.concat([udh16(1), ucs2('Привет, ')]),
      }),
      await mo(number, {
        data_coding: 3,
        short_message: Buffer.from('à bientôt', 'latin1'),
        sar_msg_ref_num: 0x0102,
        sar_total_segments: 2,
        sar_segment_seqnum: 2,
      }),
      await mo(number, {
        data_coding: 3,
        short_message: Buffer.from('Merci, ', 'latin1'),
        sar_msg_ref_num: 0x0102,
        sar_total_segments: 2,
        sar_segment_seqnum: 1,
      }),
    );
    expect(statuses).toEqual([0, 0, 0, 0, 0, 0, 0]);
    await expect
      .poll(
        async () =>
          (await rows()).map((r) => [
            r.body,
            r.encoding,
            r.segments,
            r.complete,
          ]),
        SOON,
      )
      .toEqual([
        [gsm.join(''), 'GSM-7', 3, true],
        ['Привет, мир 🌍', 'UCS-2', 2, true],
        ['Merci, à bientôt', 'Latin-1', 2, true],
      ]);
  });

  it('stores the parts that came when the rest is 10 minutes late, incomplete', async () => {
    const { number, rows } = await numberHolder();
    const udh16 = (part: number) =>
      Buffer.from([6, 0x08, 4, 0x0f, 0x0f, 3, part]);
    for (const [part, text] of [
      [3, '…three'],
      [1, 'One, '],
    ] as const) {
      expect(
        await mo(number, {
          esm_class: 0x40,
          data_coding: 8,
          short_message: Buffer.concat([udh16(part), ucs2(text)]),
        }),
      ).toBe(0);
    }
    expect(await rows()).toEqual([]);
    // Part 2 never comes: ten minutes and a little more pass.
    await query(
      `UPDATE inbound_parts SET date_received = date_received - interval '601 seconds'
        WHERE to_number = $1`,
      [number],
    );
    await expect
      .poll(
        async () => (await rows()).map((r) => [r.body, r.segments, r.complete]),
        SOON,
      )
      .toEqual([['One, …three', 2, false]]);
  });

  it('stores a message delivered twice once: by its id, and a part by its place', async () => {
    const { number, rows } = await numberHolder();
    const withId = {
      data_coding: 3,
      short_message: Buffer.from('STOP', 'latin1'),
      receipted_message_id: 'mo-1',
    };
    expect(await mo(number, withId)).toBe(0);
    expect(await mo(number, withId)).toBe(0);
    const part = (n: number, text: string) => ({
      data_coding: 0,
      short_message: {
        udh: Buffer.from([5, 0x00, 3, 0x11, 2, n]),
        message: text,
      },
    });
    expect(await mo(number, part(1, 'once '))).toBe(0);
    expect(await mo(number, part(1, 'once '))).toBe(0);
    expect(await mo(number, part(2, 'only'))).toBe(0);
    await expect
      .poll(
        async () =>
          (await rows()).map((r) => [r.body, r.provider_message_id, r.keyword]),
        SOON,
      )
      .toEqual([
        ['STOP', 'mo-1', 'STOP'],
        // No ids: the parts' place (sender, number, reference, part) made the second one known.
        ['once only', null, null],
      ]);
  });

  it('acknowledges what it cannot store, keeps the bind, and refuses what it cannot read', async () => {
    const { number, rows } = await numberHolder();
    const unrouted = await metric(UNROUTED);
    const before = smsc.receiptAnswers.length;
    const send = (to: string, fields: Record<string, unknown>) =>
      smsc.sendDeliverSm({
        source_addr: '447700900123',
        destination_addr: to,
        ...fields,
      });
    // All at once, so that they share the writer's batches: each bad one fails alone.
    send(number, {
      data_coding: 3,
      short_message: Buffer.from('good before'),
    });
    // Nobody holds this number: acknowledged, counted, dropped.
    send('4477000000', {
      data_coding: 3,
      short_message: Buffer.from('to nobody'),
    });
    // A part number beyond its total: acknowledged and dropped by the writer.
    send(number, {
      data_coding: 3,
      short_message: {
        udh: Buffer.from([5, 0x00, 3, 0x22, 2, 5]),
        message: 'odd',
      },
    });
    // 10 KB in message_payload: more than any SMS, acknowledged and dropped.
    send(number, {
      data_coding: 3,
      message_payload: Buffer.alloc(10_240, 'x'),
    });
    // A NUL and a lone surrogate: stored without them.
    send(number, {
      data_coding: 8,
      short_message: Buffer.from([0x00, 0x41, 0x00, 0x00, 0xd8, 0x3d]),
    });
    // No coding we read: refused for good (ESME_RX_P_APPN), the SMSC stops offering it.
    send(number, { data_coding: 4, short_message: Buffer.from([1, 2]) });
    send(number, {
      data_coding: 3,
      short_message: Buffer.from('good after'),
    });
    await expect
      .poll(() => smsc.receiptAnswers.slice(before).map((a) => a.status), SOON)
      .toHaveLength(7);
    // Answered as they are read: the refusal at once, the rest once written.
    expect(
      smsc.receiptAnswers
        .slice(before)
        .map((a) => a.status)
        .sort(),
    ).toEqual([0, 0, 0, 0, 0, 0, 0x65]);
    expect((await rows()).map((r) => r.body).sort()).toEqual([
      'A\uFFFD',
      'good after',
      'good before',
    ]);
    expect(await metric(UNROUTED)).toBe(unrouted + 1);
    expect(smsc.binds.filter((b) => b.accepted)).toHaveLength(1);
  });
});
