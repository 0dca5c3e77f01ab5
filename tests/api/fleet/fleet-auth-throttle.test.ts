// @also-on-pglite: the embedded engines count sign-in tries in memory (LoginThrottle), PostgreSQL in the database (SharedLoginThrottle).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attempt } from '../../../src/server/auth/login-throttle.ts';
import { SharedLoginThrottle } from '../../../src/server/auth/shared-throttle.ts';
import {
  openPglite,
  openPostgres,
  type Db,
} from '../../../src/server/db/client.ts';
import { migrate } from '../../../src/server/db/migrate.ts';
import { eventually } from '../../support/eventually.ts';
import { freshDatabaseUrl } from '../../support/start-server.ts';

// The fleet's failed-login throttle (issue 18) on the table of migrations/012: the rules of
// LoginThrottle, counted in the database. Run on PGlite, and on PostgreSQL in the CI's second
// pass; tests/api/fleet/fleet-auth.test.ts runs it across two server processes.
let db: Db;
let drop: () => Promise<void>;
const errors: unknown[] = [];

beforeAll(async () => {
  const database = await freshDatabaseUrl();
  drop = database.drop;
  db = database.url
    ? await openPostgres(database.url, 30)
    : await openPglite('memory://');
  await migrate(db);
}, 60_000);
afterAll(async () => {
  await db.close();
  await drop();
});

let n = 0;
/** A throttle on its own accounts and addresses, so tests do not share counters. */
function fresh(
  limits: ConstructorParameters<typeof SharedLoginThrottle>[2] = {},
) {
  n += 1;
  return {
    throttle: new SharedLoginThrottle(db, (e) => errors.push(e), limits),
    account: `user-${n}-${Date.now()}@example.test`,
    address: (i = 0) => `10.${n}.0.${i}`,
  };
}

const isAttempt = (x: Attempt | number): x is Attempt => typeof x !== 'number';

describe('SharedLoginThrottle', () => {
  it('lets no more than 10 of 200 simultaneous tries at one account from one address through', async () => {
    const { throttle, account, address } = fresh();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        throttle.reserveUser(account, address()),
      ),
    );
    expect(answers.filter(isAttempt)).toHaveLength(10);
    const waits = answers.filter((a) => typeof a === 'number');
    expect(Math.min(...waits)).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(60);
    expect(errors).toEqual([]);
  });

  it('gives a right password its try back, and does not count refused tries', async () => {
    const { throttle, account, address } = fresh();
    const tries = [];
    for (let i = 0; i < 10; i++)
      tries.push(await throttle.reserveUser(account, address(1)));
    expect(typeof (await throttle.reserveUser(account, address(1)))).toBe(
      'number',
    );
    // Refused tries at address 1 did not count on the account's counter (20): 10 more from
    // address 2 still pass, the 11th is refused by the account's cap.
    for (let i = 0; i < 5; i++) await throttle.reserveUser(account, address(1));
    for (let i = 0; i < 10; i++) {
      expect(isAttempt(await throttle.reserveUser(account, address(2)))).toBe(
        true,
      );
    }
    expect(typeof (await throttle.reserveUser(account, address(3)))).toBe(
      'number',
    );
    // A right password at address 1 gives back its try on every counter it took.
    const first = tries[0];
    if (!first || !isAttempt(first)) throw new Error('expected an attempt');
    first.succeeded();
    first.succeeded(); // once only
    await expect
      .poll(async () =>
        isAttempt(await throttle.reserveUser(account, address(1))),
      )
      .toBe(true);
    expect(typeof (await throttle.reserveUser(account, address(1)))).toBe(
      'number',
    );
  });

  it('lifts the account and address caps at a known address, never the pair cap', async () => {
    const { throttle, account, address } = fresh();
    for (let i = 0; i < 10; i++)
      await throttle.reserveUser(account, address(1));
    for (let i = 0; i < 10; i++)
      await throttle.reserveUser(account, address(2));
    // The account's cap (20) is reached: a new address is refused unless it is known.
    expect(typeof (await throttle.reserveUser(account, address(3)))).toBe(
      'number',
    );
    expect(
      await throttle.refusedOnlyForUnknownAddress(account, address(3)),
    ).toBe(true);
    expect(
      isAttempt(await throttle.reserveUser(account, address(3), true)),
    ).toBe(true);
    // At address 1 the pair's own cap holds, known or not.
    expect(
      await throttle.refusedOnlyForUnknownAddress(account, address(1)),
    ).toBe(false);
    expect(typeof (await throttle.reserveUser(account, address(1), true))).toBe(
      'number',
    );
  });

  it('counts wrong client secrets per address, answering the wait past the limit', async () => {
    const { throttle, address } = fresh({ secretsPerAddress: 3 });
    for (let i = 0; i < 3; i++)
      expect(await throttle.secretFailed(address())).toBe(0);
    const wait = await throttle.secretFailed(address());
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await throttle.secretFailed(address(1))).toBe(0);
  });

  it('opens a new window once the last one ended, and deletes ended windows', async () => {
    const { throttle, account, address } = fresh({ windowMs: 400 });
    /** Rows of windows that ended (400 ms ago on the database's clock). */
    const ended = async () => {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sign_in_attempts
         WHERE window_start_ms <= (extract(epoch FROM now()) * 1000)::bigint - 400`,
      );
      return row?.n ?? 0;
    };
    for (let i = 0; i < 10; i++) await throttle.reserveUser(account, address());
    expect(await throttle.reserveUser(account, address())).toBe(1);
    // Refused until the window ends, then a new one lets the try through.
    await eventually(
      () => throttle.reserveUser(account, address()),
      isAttempt,
      {
        what: 'a try in a new window',
        interval: 25,
      },
    );
    // A node prunes at most once a minute: a new one prunes at its first count, once there
    // is an ended window to delete.
    await expect.poll(ended).toBeGreaterThan(0);
    const before = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sign_in_attempts',
    );
    await fresh({ windowMs: 400 }).throttle.secretFailed('10.255.0.1');
    await expect.poll(ended).toBe(0);
    expect(before[0]?.n).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
