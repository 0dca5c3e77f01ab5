import { describe, expect, it } from 'vitest';
import { Semaphore } from '../semaphore.ts';
import { attemptDelivery, type AttemptContext } from './attempt.ts';
import type { ConnectorEntry } from './connectors.ts';
import { MAX_TRIES_PER_METHOD, type PolicyLimits } from './policy.ts';
import type { DeliveryRow } from './repo.ts';
import type {
  Connector,
  DeliveryMethod,
  OutgoingSms,
  SubmitOutcome,
} from './types.ts';
import type { Written } from './writer.ts';

const SMPP: DeliveryMethod = 'MELROSE_SMPP';
const VONAGE: DeliveryMethod = 'VONAGE_SMS';
const GATEWAY: DeliveryMethod = 'WORLD_SPECIAL';
const MINUTE = 60_000;

const limits: PolicyLimits = {
  validityMs: 48 * 60 * MINUTE,
  outageFailoverMs: 10 * MINUTE,
  retryDelaySeconds: 2,
};

/** A connector of our own interface answering `outcomes` in turn (the last one repeats). */
function fakeConnector(method: DeliveryMethod, ...outcomes: SubmitOutcome[]) {
  const sent: OutgoingSms[] = [];
  const connector: Connector = {
    method,
    submit(sms) {
      sent.push(sms);
      return Promise.resolve(
        outcomes[Math.min(sent.length, outcomes.length) - 1]!,
      );
    },
    close: () => Promise.resolve(),
  };
  return { connector, sent };
}

const logger = { debug() {}, info() {}, warn() {}, error() {} };

function setup(
  connectors: Partial<Record<DeliveryMethod, Connector>>,
  { stopping = false, slots = null as Semaphore | null } = {},
) {
  const written: Written[] = [];
  const later: number[] = [];
  let retries = 0;
  const counted: [string, number][] = [];
  const entries = new Map<DeliveryMethod, ConnectorEntry>(
    Object.entries(connectors).map(([method, connector]) => [
      method as DeliveryMethod,
      { connector, simulated: method === GATEWAY, slots },
    ]),
  );
  const ctx: AttemptContext = {
    connectors: entries,
    defaultMethod: SMPP,
    limits,
    observer: { messages: (state, count) => counted.push([state, count]) },
    logger,
    write: (item) => {
      written.push(item);
      return Promise.resolve();
    },
    stopping: () => stopping,
    laterIn: (seconds) => later.push(seconds),
    retryIn: () => (retries += 1),
  };
  return { ctx, written, later, counted, retries: () => retries };
}

function row(overrides: Partial<DeliveryRow> = {}): DeliveryRow {
  return {
    id: 'm1',
    clientId: 'c1',
    state: 'ACCEPTED',
    sender: 'Shop',
    recipient: '+447700900001',
    body: 'hello',
    encoding: 'GSM-7',
    route: null,
    splits: [],
    attempts: [],
    ageMs: 0,
    released: false,
    stopped: false,
    waitingJob: null,
    ...overrides,
  };
}

const job = { id: 'j1', retryCount: 0, retryLimit: 10 };

describe('attemptDelivery', () => {
  it('submits on the routed method and records SUBMITTED with the provider ids', async () => {
    const smpp = fakeConnector(SMPP, {
      kind: 'submitted',
      providerMessageIds: ['p1', 'p2'],
    });
    const t = setup({ [SMPP]: smpp.connector });
    expect(await attemptDelivery(t.ctx, job, row())).toBe('completed');
    expect(smpp.sent).toEqual([
      {
        messageId: 'm1',
        from: 'Shop',
        to: '+447700900001',
        text: 'hello',
        encoding: 'GSM-7',
        lane: 'c1',
      },
    ]);
    expect(t.written).toEqual([
      {
        outcome: {
          messageId: 'm1',
          method: SMPP,
          route: [SMPP],
          simulated: false,
          state: 'SUBMITTED',
          providerMessageIds: ['p1', 'p2'],
        },
      },
    ]);
    expect(t.counted).toEqual([['SUBMITTED', 1]]);
  });

  it('does nothing for a message no longer ACCEPTED, or held by a newer job', async () => {
    const smpp = fakeConnector(SMPP, {
      kind: 'submitted',
      providerMessageIds: ['p'],
    });
    const t = setup({ [SMPP]: smpp.connector });
    expect(await attemptDelivery(t.ctx, job, undefined)).toBe('completed');
    expect(await attemptDelivery(t.ctx, job, row({ state: 'SUBMITTED' }))).toBe(
      'completed',
    );
    expect(
      await attemptDelivery(t.ctx, job, row({ waitingJob: 'another job' })),
    ).toBe('completed');
    expect(smpp.sent).toHaveLength(0);
    expect(t.written).toHaveLength(0);
  });

  it('records a refusal and goes on to the next method at once', async () => {
    const smpp = fakeConnector(SMPP, { kind: 'refused', error: 'bad number' });
    const vonage = fakeConnector(VONAGE, {
      kind: 'submitted',
      providerMessageIds: ['v1'],
    });
    const t = setup({ [SMPP]: smpp.connector, [VONAGE]: vonage.connector });
    const route = [SMPP, VONAGE];
    expect(await attemptDelivery(t.ctx, job, row({ route }))).toBe('completed');
    expect(t.written.map((w) => 'outcome' in w && w.outcome)).toEqual([
      expect.objectContaining({
        method: SMPP,
        state: 'REFUSED',
        error: 'bad number',
      }),
      expect.objectContaining({ method: VONAGE, state: 'SUBMITTED', route }),
    ]);
  });

  it('a transient failure is recorded and retried later on the same method', async () => {
    const smpp = fakeConnector(SMPP, { kind: 'retry', error: 'timeout' });
    const vonage = fakeConnector(VONAGE, {
      kind: 'submitted',
      providerMessageIds: ['v'],
    });
    const t = setup({ [SMPP]: smpp.connector, [VONAGE]: vonage.connector });
    const result = await attemptDelivery(
      t.ctx,
      job,
      row({ route: [SMPP, VONAGE] }),
    );
    expect(result).toBe('failed');
    expect(t.retries()).toBe(1);
    expect(vonage.sent).toHaveLength(0);
    expect(t.written).toEqual([
      {
        outcome: expect.objectContaining({
          method: SMPP,
          state: 'FAILED',
          error: 'timeout',
        }),
      },
    ]);
  });

  it("fails over once the method's tries are used up", async () => {
    const smpp = fakeConnector(SMPP, { kind: 'retry', error: 'timeout' });
    const vonage = fakeConnector(VONAGE, {
      kind: 'submitted',
      providerMessageIds: ['v'],
    });
    const t = setup({ [SMPP]: smpp.connector, [VONAGE]: vonage.connector });
    const earlier = Array.from({ length: MAX_TRIES_PER_METHOD - 1 }, () => ({
      method: SMPP,
      state: 'FAILED',
      ageMs: 1000,
    }));
    const result = await attemptDelivery(
      t.ctx,
      job,
      row({ route: [SMPP, VONAGE], attempts: earlier }),
    );
    expect(result).toBe('completed');
    expect(t.retries()).toBe(0);
    expect(t.written.map((w) => 'outcome' in w && w.outcome)).toEqual([
      expect.objectContaining({ method: SMPP, state: 'FAILED' }),
      expect.objectContaining({ method: VONAGE, state: 'SUBMITTED' }),
    ]);
  });

  it("on the queue's last run a transient failure fails over at once", async () => {
    const smpp = fakeConnector(SMPP, { kind: 'retry', error: 'timeout' });
    const vonage = fakeConnector(VONAGE, {
      kind: 'submitted',
      providerMessageIds: ['v'],
    });
    const t = setup({ [SMPP]: smpp.connector, [VONAGE]: vonage.connector });
    const last = { ...job, retryCount: 9, retryLimit: 10 };
    expect(
      await attemptDelivery(t.ctx, last, row({ route: [SMPP, VONAGE] })),
    ).toBe('completed');
    expect(vonage.sent).toHaveLength(1);
  });

  it('an unavailable method defers the message with one UNAVAILABLE attempt, not a try', async () => {
    const smpp = fakeConnector(SMPP, {
      kind: 'unavailable',
      error: 'bind down',
    });
    const t = setup({ [SMPP]: smpp.connector });
    expect(await attemptDelivery(t.ctx, job, row())).toBe('completed');
    expect(t.written).toEqual([
      {
        defer: { messageId: 'm1', delaySeconds: 2, route: [SMPP] },
        attempt: expect.objectContaining({
          state: 'UNAVAILABLE',
          error: 'bind down; waiting for it (not counted as a try)',
        }),
      },
    ]);
    expect(t.later).toEqual([2]);
    // Already waiting for it: deferred again without another attempt.
    const again = setup({ [SMPP]: smpp.connector });
    await attemptDelivery(
      again.ctx,
      job,
      row({ attempts: [{ method: SMPP, state: 'UNAVAILABLE', ageMs: 5000 }] }),
    );
    expect(again.written).toEqual([
      { defer: expect.objectContaining({ messageId: 'm1' }), attempt: null },
    ]);
  });

  it('busy (our own flow control) defers without an attempt', async () => {
    const smpp = fakeConnector(SMPP, { kind: 'busy', error: 'window full' });
    const t = setup({ [SMPP]: smpp.connector });
    expect(await attemptDelivery(t.ctx, job, row())).toBe('completed');
    expect(t.written).toEqual([
      {
        defer: { messageId: 'm1', delaySeconds: 2, route: [SMPP] },
        attempt: null,
      },
    ]);
  });

  it('after a long outage fails over to the next method', async () => {
    const smpp = fakeConnector(SMPP, {
      kind: 'unavailable',
      error: 'bind down',
    });
    const vonage = fakeConnector(VONAGE, {
      kind: 'submitted',
      providerMessageIds: ['v'],
    });
    const t = setup({ [SMPP]: smpp.connector, [VONAGE]: vonage.connector });
    const attempts = [
      { method: SMPP, state: 'UNAVAILABLE', ageMs: 11 * MINUTE },
    ];
    await attemptDelivery(t.ctx, job, row({ route: [SMPP, VONAGE], attempts }));
    // The long-down method goes last: the other one is tried first and takes it.
    expect(smpp.sent).toHaveLength(0);
    expect(vonage.sent).toHaveLength(1);
  });

  it('gives up at the end of the validity', async () => {
    const smpp = fakeConnector(SMPP, {
      kind: 'unavailable',
      error: 'bind down',
    });
    const t = setup({ [SMPP]: smpp.connector });
    await attemptDelivery(t.ctx, job, row({ ageMs: limits.validityMs }));
    expect(t.written).toEqual([
      {
        outcome: expect.objectContaining({
          state: 'FAILED',
          error:
            "bind down; still not sent at the end of the message's validity",
        }),
      },
      { outcome: { messageId: 'm1', fail: true } },
    ]);
  });

  it('no method took it: FAILED and refunded', async () => {
    const smpp = fakeConnector(SMPP, { kind: 'refused', error: 'no' });
    const gateway = fakeConnector(GATEWAY, { kind: 'refused', error: 'nope' });
    const t = setup({ [SMPP]: smpp.connector, [GATEWAY]: gateway.connector });
    expect(
      await attemptDelivery(t.ctx, job, row({ route: [SMPP, GATEWAY] })),
    ).toBe('completed');
    expect(t.written.map((w) => 'outcome' in w && w.outcome)).toEqual([
      expect.objectContaining({
        method: SMPP,
        state: 'REFUSED',
        simulated: false,
      }),
      expect.objectContaining({
        method: GATEWAY,
        state: 'REFUSED',
        simulated: true,
      }),
      { messageId: 'm1', fail: true },
    ]);
  });

  it('while stopping, a submit cut short goes back to the queue unrecorded', async () => {
    const smpp = fakeConnector(SMPP, {
      kind: 'retry',
      error: 'SMPP connector closed',
    });
    const t = setup({ [SMPP]: smpp.connector }, { stopping: true });
    expect(await attemptDelivery(t.ctx, job, row())).toBe('failed');
    expect(t.written).toHaveLength(0);
    expect(t.retries()).toBe(0);
  });

  it("routes a message without a route over its client's splits", async () => {
    const vonage = fakeConnector(VONAGE, {
      kind: 'submitted',
      providerMessageIds: ['v'],
    });
    const t = setup({ [VONAGE]: vonage.connector });
    await attemptDelivery(
      t.ctx,
      job,
      row({ splits: [{ method: VONAGE, weight: 100 }] }),
    );
    expect(vonage.sent).toHaveLength(1);
    expect(t.written[0]).toEqual({
      outcome: expect.objectContaining({ route: [VONAGE] }),
    });
  });

  it("holds one of the method's slots during the submit and frees it after", async () => {
    const slots = new Semaphore(1);
    let release!: (outcome: SubmitOutcome) => void;
    const connector: Connector = {
      method: SMPP,
      submit: () => new Promise((resolve) => (release = resolve)),
      close: () => Promise.resolve(),
    };
    const t = setup({ [SMPP]: connector }, { slots });
    const first = attemptDelivery(t.ctx, job, row());
    await expect.poll(() => release).toBeDefined();
    let secondStarted = false;
    const second = slots.acquire().then((free) => {
      secondStarted = true;
      free();
    });
    await Promise.resolve();
    expect(secondStarted).toBe(false);
    release({ kind: 'submitted', providerMessageIds: ['p'] });
    await first;
    await second;
    expect(secondStarted).toBe(true);
  });
});
