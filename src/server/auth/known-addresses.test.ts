import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/client.ts';
import { KnownAddresses } from './known-addresses.ts';

/** Records statements; a SELECT answers `rows`. */
function fakeDb(rows: { ms_left: number }[] = []) {
  const statements: string[] = [];
  const db: Queryable = {
    async query<T>(text: string): Promise<T[]> {
      statements.push(text.trim().split(/\s+/)[0] ?? '');
      return (text.trim().startsWith('SELECT') ? rows : []) as T[];
    },
    async exec() {},
  };
  return { db, statements };
}

const HOUR = 3_600_000;
const now = 1_000_000_000;
const ada = { id: 'u-1', account: 'ada@example.test' };
const fail = (error: unknown) => {
  throw error;
};

describe('KnownAddresses', () => {
  it('writes a pair at most once an hour, and housekeeps at most once an hour', async () => {
    const { db, statements } = fakeDb();
    const known = new KnownAddresses(db, fail);
    await known.signedIn(ada, '192.0.2.1', now);
    expect(known.signedIn(ada, '192.0.2.1', now + HOUR - 1)).toBeUndefined();
    await known.signedIn(ada, '192.0.2.2', now + 1);
    await known.signedIn(ada, '192.0.2.1', now + HOUR);
    await known.drain();
    expect(statements).toEqual([
      'INSERT',
      'DELETE',
      'INSERT',
      'INSERT',
      'DELETE',
    ]);
  });

  it('knows a pair signed in on this node without asking the database', async () => {
    const { db, statements } = fakeDb();
    const known = new KnownAddresses(db, fail);
    void known.signedIn(ada, '192.0.2.1', now);
    await known.drain();
    statements.length = 0;
    expect(await known.isKnown(ada.account, '192.0.2.1', now + 1)).toBe(true);
    expect(statements).toEqual([]);
  });

  it('asks the database once a minute about an unknown pair', async () => {
    const { db, statements } = fakeDb();
    const known = new KnownAddresses(db, fail);
    expect(await known.isKnown(ada.account, '192.0.2.1', now)).toBe(false);
    expect(await known.isKnown(ada.account, '192.0.2.1', now + 59_999)).toBe(
      false,
    );
    expect(statements).toEqual(['SELECT']);
    await known.isKnown(ada.account, '192.0.2.1', now + 60_000);
    expect(statements).toEqual(['SELECT', 'SELECT']);
  });

  it('trusts a known pair read from the database for 10 minutes, or until it expires', async () => {
    const { db, statements } = fakeDb([{ ms_left: 5 * 60_000 }]);
    const known = new KnownAddresses(db, fail);
    expect(await known.isKnown(ada.account, '192.0.2.1', now)).toBe(true);
    expect(
      await known.isKnown(ada.account, '192.0.2.1', now + 5 * 60_000 - 1),
    ).toBe(true);
    expect(statements).toEqual(['SELECT']);
    await known.isKnown(ada.account, '192.0.2.1', now + 5 * 60_000);
    expect(statements).toEqual(['SELECT', 'SELECT']);
  });

  it('tries a failed write again at the next sign-in', async () => {
    const errors: unknown[] = [];
    let failing = true;
    const statements: string[] = [];
    const db: Queryable = {
      async query<T>(text: string): Promise<T[]> {
        statements.push(text.trim().split(/\s+/)[0] ?? '');
        if (failing) throw new Error('database down');
        return [] as T[];
      },
      async exec() {},
    };
    const known = new KnownAddresses(db, (e) => void errors.push(e));
    await known.signedIn(ada, '192.0.2.1', now);
    failing = false;
    await known.signedIn(ada, '192.0.2.1', now + 1);
    expect(statements).toEqual(['INSERT', 'INSERT', 'DELETE']);
    expect(errors).toHaveLength(1);
  });
});
