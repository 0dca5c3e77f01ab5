import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../support/http.ts';
import {
  spawnServer,
  stopServer,
  type SpawnedServer,
} from '../../support/spawn-server.ts';

// Issue 9, finding 6: without header and request timeouts, 3,000 slow-header connections stayed
// open 86 s, and 20,000 idle ones exhausted the file descriptors until health stopped answering.
// A real server process, with short limits so the test stays short.
const HEADERS_TIMEOUT_MS = 1_000;
const MAX_CONNECTIONS = 400;

let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer({
    DATA_DIR: 'memory://',
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    HTTP_REQUEST_TIMEOUT_MS: '2000',
    MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  });
});
afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
});

interface Tracked {
  socket: Socket;
  closedAt?: number;
}

/** Opens `count` connections; each sends `first` (if any) once connected, then nothing more. */
async function open(
  url: string,
  count: number,
  first?: string,
): Promise<Tracked[]> {
  const { hostname, port } = new URL(url);
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Tracked>((resolve, reject) => {
          const tracked: Tracked = {
            socket: connect({ host: hostname, port: Number(port) }),
          };
          tracked.socket.on('error', () => undefined); // resets are closes too
          // Read whatever the server says (a 408), so its close is seen.
          tracked.socket.resume();
          tracked.socket.once('close', () => (tracked.closedAt = Date.now()));
          tracked.socket.once('connect', () => {
            if (first) tracked.socket.write(first);
            resolve(tracked);
          });
          tracked.socket.once('error', reject);
        }),
    ),
  );
}

const stillOpen = (sockets: Tracked[]) =>
  sockets.filter((s) => s.closedAt === undefined).length;

describe('connection limits of the HTTP server', () => {
  it('closes slow-header connections within the header timeout while health keeps answering', async () => {
    const started = Date.now();
    const slow = await open(server.url, 300, 'GET /api/hea');
    // While they hang, the server serves others.
    for (let i = 0; i < 3; i++) {
      const health = await httpClient(server.url).get('/api/health');
      expect(health.status).toBe(200);
    }
    // Header timeout, plus the server's checking interval, plus slack for a busy machine.
    await expect
      .poll(() => stillOpen(slow), {
        timeout: HEADERS_TIMEOUT_MS + 4_000,
        message: 'slow-header connections still open',
      })
      .toBe(0);
    const latest = Math.max(...slow.map((s) => s.closedAt ?? Infinity));
    expect(latest - started).toBeLessThan(HEADERS_TIMEOUT_MS + 4_000);
    expect((await httpClient(server.url).get('/api/health')).status).toBe(200);
  }, 15_000);

  it('closes connections that never send anything, and refuses those over MAX_CONNECTIONS', async () => {
    const idle = await open(server.url, MAX_CONNECTIONS + 50);
    // Those over the limit are closed at once by the server.
    await expect
      .poll(() => idle.length - stillOpen(idle), { timeout: 2_000 })
      .toBeGreaterThanOrEqual(50);
    // The rest time out like any request whose headers do not arrive.
    await expect
      .poll(() => stillOpen(idle), {
        timeout: HEADERS_TIMEOUT_MS + 4_000,
        message: 'idle connections still open',
      })
      .toBe(0);
    expect((await httpClient(server.url).get('/api/health')).status).toBe(200);
  }, 15_000);
});
