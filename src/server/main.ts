import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { saveCompileCache } from './memory.ts';
import { closeOnSignals } from './shutdown.ts';

// The server's entry (npm start): it reads the environment, handles signals and exits; tests
// build the app with their own config. worker.ts is the same for the delivery-only process.
const config = loadConfigOrExit(process.env);

let app: FastifyInstance;
try {
  app = await buildApp(config);
} catch (error) {
  console.error(`Cannot start: ${(error as Error).message}`);
  process.exit(1);
}

// A keep-alive socket would hold close() open until its timeout (HTTP_KEEP_ALIVE_TIMEOUT_MS) after its last
// response: responses in flight when closing starts say `Connection: close`, idle ones are ended.
const inFlight = new Set<ServerResponse>();
// One listener for every response, not a closure and a `once` wrapper per request.
function settled(this: ServerResponse) {
  inFlight.delete(this);
}
app.server.on('request', (_request, response: ServerResponse) => {
  // Draining: every answer closes its connection, so a load balancer reconnects elsewhere.
  if (app.readiness.draining) response.shouldKeepAlive = false;
  inFlight.add(response);
  response.on('close', settled);
});

/** Resolves once every response of `responses` has been sent (or its connection dropped). */
function answered(responses: ServerResponse[]): Promise<unknown> {
  return Promise.all(
    responses.map((response) =>
      response.closed
        ? undefined
        : new Promise((done) => response.once('close', done)),
    ),
  );
}

// SIGTERM/SIGINT (CONTRACT.md "Operating a fleet"): readiness answers 503 at once while the node
// still serves; after SHUTDOWN_DELAY_SECONDS, and once the requests in flight at the signal are
// answered, the listener closes, delivery stops (its submits answered or their jobs given back:
// the onClose hook) and the database closes (releasing the DATA_DIR lock); exit 0. Exit 1 after
// SHUTDOWN_TIMEOUT_SECONDS without closing. A repeated signal does not cut this short.
closeOnSignals(
  { timeoutMs: config.shutdown.timeoutMs, log: app.log },
  async ({ err }) => {
    app.readiness.drain();
    if (!err) {
      const atSignal = [...inFlight];
      await new Promise((done) => setTimeout(done, config.shutdown.delayMs));
      await answered(atSignal);
    }
    for (const response of inFlight) response.shouldKeepAlive = false;
    const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
    try {
      await app.close();
    } finally {
      clearInterval(reaper);
    }
  },
);

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  console.error(
    `Cannot start: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`,
  );
  await app.close();
  process.exit(1);
}
// Started: the compile cache to disk, what starting left behind back to the system (memory.ts).
saveCompileCache();
