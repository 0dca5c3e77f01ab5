/**
 * CPU time of a process tree from /proc (Linux): the server's node process with the embedded
 * PostgreSQL it started (postmaster, its backends and background workers), or a PostgreSQL
 * server's postmaster tree on DATABASE_URL when it runs on this machine and /proc shows it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

interface Stat {
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

/** Clock ticks a second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

function readStat(pid: number): Stat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis (the command may hold spaces): ppid is
    // the 4th field of the line, utime/stime/cutime/cstime the 14th to the 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      // Children's times (cutime, cstime) count the backends that exited and were reaped: a
      // connection closed during the run still counts.
      ticks:
        Number(fields[11]) +
        Number(fields[12]) +
        Number(fields[13]) +
        Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/** The CPU time, in µs, that the process `pid` alone has used so far (with its reaped children). */
export function processCpuMicros(pid: number | undefined): number | undefined {
  const stat = pid === undefined ? undefined : readStat(pid);
  return stat && (stat.ticks * 1e6) / TICKS_PER_SECOND;
}

/**
 * The CPU time, in µs, that `root` and every process under it have used so far; undefined when
 * /proc does not show `root`.
 */
export function treeCpuMicros(root: number | undefined): number | undefined {
  if (root === undefined || readStat(root) === undefined) return undefined;
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      const parent = stats.get(p)?.ppid;
      if (parent === undefined) return false;
      p = parent;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

/**
 * The postmaster of the PostgreSQL server at `url` when it runs on this machine and /proc shows
 * it (a backend's parent, checked to be a postgres process: a server in a container or on
 * another host has pids that mean something else here); undefined otherwise.
 */
export async function localPostmaster(
  url: string,
): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pg_backend_pid() AS pid',
    );
    const backend = rows[0]!.pid;
    const isPostgres = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres');
      } catch {
        return false;
      }
    };
    const parent = readStat(backend)?.ppid;
    return isPostgres(backend) && parent !== undefined && isPostgres(parent)
      ? parent
      : undefined;
  } finally {
    await client.end();
  }
}
