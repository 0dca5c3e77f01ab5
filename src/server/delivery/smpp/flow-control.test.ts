import { describe, expect, it } from 'vitest';
import { FlowControl, type FlowClock } from './flow-control.ts';

/** A clock that moves only when told, with its timers. */
function fakeClock() {
  let now = 1_000;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: FlowClock = {
    now: () => now,
    setTimer(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimer: (id) => void timers.delete(id as number),
  };
  return {
    clock,
    timers,
    /** Moves time on, firing the timers due on the way. */
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...timers]) {
        if (timer.at <= now) {
          timers.delete(id);
          timer.fn();
        }
      }
    },
  };
}

function setUp(window: number, maxTps: number | null, throttlePauseMs = 1_000) {
  const time = fakeClock();
  let ready = 0;
  const flow = new FlowControl({
    window,
    maxTps,
    throttlePauseMs,
    clock: time.clock,
    ready: () => (ready += 1),
  });
  return { flow, time, ready: () => ready };
}

/** Tokens taken until the bucket says no. */
function drain(flow: FlowControl): number {
  let taken = 0;
  while (flow.take()) taken += 1;
  return taken;
}

describe('FlowControl', () => {
  it('the window bounds outstanding submits', () => {
    const { flow } = setUp(3, null);
    expect(flow.hasRoom(2)).toBe(true);
    expect(flow.hasRoom(3)).toBe(false);
  });

  it('without a cap every take succeeds and nothing is scheduled', () => {
    const { flow, time } = setUp(10, null);
    for (let i = 0; i < 1000; i++) expect(flow.take()).toBe(true);
    expect(time.timers.size).toBe(0);
  });

  it('the token bucket holds 50 ms of submits and refills at the cap', () => {
    const { flow, time, ready } = setUp(10, 200);
    // 200/s: a burst of 10 (50 ms worth), then one every 5 ms.
    expect(drain(flow)).toBe(10);
    expect(time.timers.size).toBe(1);
    time.advance(4);
    expect(ready()).toBe(0);
    time.advance(1);
    expect(ready()).toBe(1);
    expect(drain(flow)).toBe(1);
    // Over one second, no more than the cap (plus the burst already spent).
    let taken = 0;
    for (let ms = 0; ms < 1000; ms++) {
      time.advance(1);
      taken += drain(flow);
    }
    expect(taken).toBe(200);
  });

  it('a low cap still lets one submit through at a time', () => {
    const { flow, time, ready } = setUp(10, 2);
    expect(drain(flow)).toBe(1);
    time.advance(499);
    expect(ready()).toBe(0);
    time.advance(1);
    expect(ready()).toBe(1);
    expect(drain(flow)).toBe(1);
  });

  it('one wake-up is scheduled however often the bucket is found empty', () => {
    const { flow, time } = setUp(10, 20);
    drain(flow);
    flow.take();
    flow.take();
    expect(time.timers.size).toBe(1);
  });

  it('throttling pauses, halves window and rate once per pause, and wakes after it', () => {
    const { flow, time, ready } = setUp(10, 100, 1_000);
    expect(flow.paused()).toBe(false);
    expect(flow.throttled()).toBe(true);
    expect([flow.window, flow.rate]).toEqual([5, 50]);
    // Answers to PDUs already out arrive within the pause: no second cut.
    expect(flow.throttled()).toBe(false);
    expect([flow.window, flow.rate]).toEqual([5, 50]);
    expect(flow.paused()).toBe(true);
    time.advance(999);
    expect(ready()).toBe(0);
    time.advance(1);
    expect(ready()).toBe(1);
    expect(flow.paused()).toBe(false);
    expect(flow.throttled()).toBe(true);
    expect([flow.window, flow.rate]).toEqual([2, 25]);
  });

  it('never cuts below one slot and one submit per second', () => {
    const { flow, time } = setUp(2, 3, 10);
    for (let i = 0; i < 5; i++) {
      flow.throttled();
      time.advance(10);
    }
    expect([flow.window, flow.rate]).toEqual([1, 1]);
  });

  it('regrows after a window of accepted submits: one slot, a tenth of the rate', () => {
    const { flow } = setUp(10, 100);
    flow.throttled();
    expect([flow.window, flow.rate]).toEqual([5, 50]);
    for (let i = 0; i < 4; i++) flow.accepted();
    expect([flow.window, flow.rate]).toEqual([5, 50]);
    flow.accepted();
    expect([flow.window, flow.rate]).toEqual([6, 60]);
    for (let i = 0; i < 100; i++) flow.accepted();
    // Back to the configured values, never beyond.
    expect([flow.window, flow.rate]).toEqual([10, 100]);
  });

  it('close cancels the pending wake-up', () => {
    const { flow, time, ready } = setUp(10, 20);
    drain(flow);
    flow.close();
    time.advance(10_000);
    expect(ready()).toBe(0);
  });
});
