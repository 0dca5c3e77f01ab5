/**
 * The test SMSC in its own process reports when each submit_sm arrived, on the clock of
 * Date.now() in other processes: bench:delivery counts the last submit after the load's end
 * with it.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createSmppConnector } from '../../../src/server/delivery/smpp/connector.ts';
import type { Connector } from '../../../src/server/delivery/types.ts';
import {
  startSmscProcess,
  type SmscProcess,
} from '../../support/smsc-process.ts';

let smsc: SmscProcess | undefined;
let connector: Connector | undefined;

afterEach(async () => {
  await connector?.close();
  await smsc?.stop();
  connector = smsc = undefined;
});

describe('the SMSC process', () => {
  it('reports each submit_sm with its arrival time, in order', async () => {
    smsc = await startSmscProcess({});
    connector = createSmppConnector({
      host: smsc.host,
      port: smsc.port,
      systemId: 'test',
      password: 'secret',
      window: 1,
      logger: pino({ level: 'silent' }),
    });
    const send = (n: number) =>
      connector!.submit({
        messageId: `m${n}`,
        from: 'Bench',
        to: '447700900123',
        text: `arrival ${n}`,
        encoding: 'GSM-7',
      });
    const before = Date.now();
    expect((await send(1)).kind).toBe('submitted');
    await new Promise((r) => setTimeout(r, 50));
    const between = Date.now();
    expect((await send(2)).kind).toBe('submitted');
    const after = Date.now();

    const { submits, texts, arrivals } = await smsc.stats();
    expect(submits).toBe(2);
    expect(texts).toEqual(['arrival 1', 'arrival 2']);
    expect(arrivals).toHaveLength(2);
    // A millisecond of slack each way: the two processes round their clocks differently.
    expect(arrivals[0]).toBeGreaterThanOrEqual(before - 1);
    expect(arrivals[0]).toBeLessThanOrEqual(between + 1);
    expect(arrivals[1]).toBeGreaterThanOrEqual(between - 1);
    expect(arrivals[1]).toBeLessThanOrEqual(after + 1);
  });
});
