import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const MAIN = join(resolve(import.meta.dirname), 'smsc-main.ts');

export interface SmscProcess {
  host: string;
  port: number;
  child: ChildProcess;
  /**
   * submit_sm received so far, their texts, destination addresses and arrival times (epoch ms,
   * as Date.now() here), in order.
   */
  stats(): Promise<{
    submits: number;
    texts: string[];
    destinations: string[];
    arrivals: number[];
    binds: number;
  }>;
  /**
   * Sends `count` mobile-originated messages from `from` to `to`, `perSecond` a second (0: at
   * once); resolves when the last was sent, with how long sending took.
   */
  sendMo(
    count: number,
    perSecond: number,
    from: string,
    to: string,
  ): Promise<{ sent: number; seconds: number }>;
  stop(): Promise<void>;
}

/** The test SMSC in its own process (tests/support/smsc-main.ts), so it shares no event loop. */
export async function startSmscProcess(
  env: Record<string, string>,
): Promise<SmscProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: any) => void)[] = [];
  const moWaiting: ((line: any) => void)[] = [];
  let ready: (address: { host: string; port: number }) => void;
  const listening = new Promise<{ host: string; port: number }>(
    (r) => (ready = r),
  );
  lines.on('line', (line) => {
    const parsed = JSON.parse(line);
    if (parsed.stats) waiting.shift()?.(parsed.stats);
    else if (parsed.mo) moWaiting.shift()?.(parsed.mo);
    else if (parsed.port) ready(parsed);
  });
  const exited = new Promise((r) => child.once('exit', r));
  const address = await Promise.race([
    listening,
    exited.then(() => {
      throw new Error('SMSC process exited before listening');
    }),
  ]);
  return {
    ...address,
    child,
    stats: () =>
      new Promise((r) => {
        waiting.push(r);
        child.stdin!.write('stats\n');
      }),
    sendMo: (count, perSecond, from, to) =>
      new Promise((r) => {
        moWaiting.push(r);
        child.stdin!.write(`mo ${count} ${perSecond} ${from} ${to}\n`);
      }),
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}
