import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/client.ts';
import { SecretUsage } from './secret-usage.ts';

/** A database that counts the writes and answers like the conditional UPDATE. */
function fakeDb(lastWritten: { at: number | undefined }) {
  const queries: string[] = [];
  const db: Queryable = {
    async query<T>(text: string) {
      queries.push(text);
      const now = Date.now();
      if (lastWritten.at !== undefined && lastWritten.at > now - 60_000) {
        return [] as T[];
      }
      lastWritten.at = now;
      return [{ secret_last_used_at: new Date(now) }] as T[];
    },
    async exec() {},
  };
  return { db, queries };
}

describe('SecretUsage', () => {
  it('writes once a minute per client, however many requests use the secret', async () => {
    const { db, queries } = fakeDb({ at: undefined });
    const usage = new SecretUsage(db, () => undefined);
    const now = Date.now();
    await usage.used('c1', now);
    for (let i = 0; i < 100; i++)
      expect(usage.used('c1', now + i)).toBeUndefined();
    expect(queries).toHaveLength(1);
    await usage.used('c2', now);
    expect(queries).toHaveLength(2);
    await usage.used('c1', now + 60_001);
    expect(queries).toHaveLength(3);
  });

  it('costs no query when the row read at sign-in says it was used within the minute (another node wrote it)', () => {
    const { db, queries } = fakeDb({ at: Date.now() });
    const usage = new SecretUsage(db, () => undefined);
    usage.observe('c1', new Date(Date.now() - 10_000));
    expect(usage.used('c1')).toBeUndefined();
    expect(queries).toHaveLength(0);
  });

  it('tries again at the next use when a write failed, and reports the failure', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const db: Queryable = {
      async query<T>() {
        if (fail) throw new Error('database down');
        return [{ secret_last_used_at: new Date() }] as T[];
      },
      async exec() {},
    };
    const usage = new SecretUsage(db, (e) => errors.push(e));
    await usage.used('c1');
    expect(errors).toHaveLength(1);
    fail = false;
    expect(usage.used('c1')).toBeDefined();
  });
});
