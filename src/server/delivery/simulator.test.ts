import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSimulator } from './simulator.ts';
import type { OutgoingSms } from './types.ts';

afterEach(() => vi.useRealTimers());

const sms: OutgoingSms = {
  messageId: 'm1',
  from: 'Shop',
  to: '447700900123',
  text: 'Hi',
  encoding: 'GSM-7',
};

describe('the simulator', () => {
  it('reports a receipt again, later, when it could not be recorded', async () => {
    vi.useFakeTimers();
    const simulator = createSimulator('MELROSE_SMPP', 200);
    const tries: number[] = [];
    simulator.onReceipt(async () => {
      tries.push(Date.now());
      if (tries.length < 3) throw new Error('database unavailable');
    });
    const outcome = await simulator.submit(sms);
    expect(outcome.kind).toBe('submitted');
    await vi.advanceTimersByTimeAsync(200);
    expect(tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tries).toHaveLength(3);
    // Recorded: nothing more.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tries).toHaveLength(3);
    await simulator.close();
  });

  it('reports what it still owes when closed, once', async () => {
    vi.useFakeTimers();
    const simulator = createSimulator('MELROSE_SMPP', 200);
    const ids: string[] = [];
    simulator.onReceipt(async (receipt) => {
      ids.push(receipt.providerMessageId);
    });
    await simulator.submit(sms);
    await simulator.close();
    expect(ids).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ids).toHaveLength(1);
  });
});
