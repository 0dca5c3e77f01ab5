import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './spawn-server.ts';

/**
 * A PostgreSQL cluster of a test's own, which it may stop and start (the shared one of
 * TEST_DATABASE_URL must stay up): PostgreSQL's programs as .ci/run finds them, the newest of
 * /usr/lib/postgresql (else PATH), run as the postgres user when we are root (initdb refuses root).
 */
export interface ThrowawayPostgres {
  url: string;
  /** pg_ctl start (waits until it accepts connections). */
  start(): void;
  /** pg_ctl stop in `mode` (immediate: as a crash; fast: as an operator's restart). */
  stop(mode?: 'immediate' | 'fast'): void;
  /** Stops it and deletes its files. */
  remove(): void;
}

export async function throwawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'throwaway-pg-'));
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const bin = versions.length
    ? `/usr/lib/postgresql/${versions.at(-1)}/bin/`
    : '';
  const asRoot = process.getuid?.() === 0;
  if (asRoot) spawnSync('chown', ['postgres:postgres', dir]);
  const run = (program: string, ...args: string[]) => {
    const done = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', bin + program, ...args], {
          encoding: 'utf8',
        })
      : spawnSync(bin + program, args, { encoding: 'utf8' });
    if (done.status !== 0) {
      throw new Error(`${program} ${args.join(' ')} failed: ${done.stderr}`);
    }
  };
  const data = join(dir, 'data');
  run('initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync');
  const port = await freePort();
  const cluster: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () =>
      run(
        'pg_ctl',
        '-D',
        data,
        '-w',
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        '-l',
        join(dir, 'server.log'),
        'start',
      ),
    stop: (mode = 'fast') =>
      run('pg_ctl', '-D', data, '-w', '-m', mode, 'stop'),
    remove: () => {
      try {
        cluster.stop('immediate');
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
