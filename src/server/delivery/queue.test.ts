import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/client.ts';
import { checkQueueSchema, PGBOSS_SCHEMA_VERSION } from './queue.ts';

/** A database that answers the version query with `version`. */
function versionDb(version: number | string | undefined): Queryable {
  return {
    query: async <T>() =>
      (version === undefined ? [] : [{ version }]) as unknown as T[],
    exec: async () => undefined,
  };
}

describe('checkQueueSchema', () => {
  it('passes on the pg-boss schema the delivery SQL was written for', async () => {
    await expect(
      checkQueueSchema(versionDb(PGBOSS_SCHEMA_VERSION)),
    ).resolves.toBeUndefined();
    await expect(
      checkQueueSchema(versionDb(String(PGBOSS_SCHEMA_VERSION))),
    ).resolves.toBeUndefined();
  });

  it('stops the start on any other version, naming both and what to check', async () => {
    await expect(
      checkQueueSchema(versionDb(PGBOSS_SCHEMA_VERSION + 1)),
    ).rejects.toThrow(
      `pg-boss schema version ${PGBOSS_SCHEMA_VERSION + 1} is installed, but the delivery SQL`,
    );
    await expect(checkQueueSchema(versionDb(undefined))).rejects.toThrow(
      /version unknown is installed/,
    );
  });

  it('is the version of the installed pg-boss package', async () => {
    const { default: pkg } = await import('pg-boss/package.json', {
      with: { type: 'json' },
    });
    expect((pkg as { pgboss: { schema: number } }).pgboss.schema).toBe(
      PGBOSS_SCHEMA_VERSION,
    );
  });
});
