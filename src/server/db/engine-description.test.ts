import { describe, expect, it } from 'vitest';
import { describeEngine, serverOf } from './engine-description.ts';

describe('describeEngine', () => {
  it('tells the embedded PostgreSQL, PGlite and a PostgreSQL server apart', () => {
    const url =
      'postgres://app:s3cret@db.internal:6432/console?sslmode=require';
    expect(
      describeEngine(
        {
          dataDir: '/srv/data',
          databaseUrl: 'postgres://x:y@127.0.0.1:5999/console',
        },
        { kind: 'postgres', embedded: true },
      ),
    ).toEqual({ kind: 'postgres-embedded', where: '/srv/data' });
    expect(
      describeEngine(
        { dataDir: '/srv/data', databaseUrl: undefined },
        { kind: 'pglite', embedded: true },
      ),
    ).toEqual({ kind: 'pglite', where: '/srv/data' });
    expect(
      describeEngine(
        { dataDir: 'memory://', databaseUrl: undefined },
        { kind: 'pglite' },
      ),
    ).toEqual({ kind: 'pglite', where: 'memory' });
    const server = describeEngine(
      { dataDir: './data', databaseUrl: url },
      { kind: 'postgres' },
    );
    expect(server).toEqual({
      kind: 'postgres',
      where: 'db.internal:6432/console',
    });
    expect(JSON.stringify(server)).not.toContain('s3cret');
  });

  it('names the default port, and nothing of a URL it cannot read', () => {
    expect(serverOf('postgresql://u:p@db/console')).toBe('db:5432/console');
    expect(serverOf('not a url')).toBe('unknown');
  });
});
