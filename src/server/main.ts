import type { ServerResponse } from 'node:http';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';

// The server's entry (npm start): it reads the environment, handles signals and exits; tests
// build the app with their own config. worker.ts is the same for the delivery-only process.
let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

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
app.server.on('request', (_request, response: ServerResponse) => {
  inFlight.add(response);
  response.once('close', () => inFlight.delete(response));
});

// SIGTERM/SIGINT: stop accepting, finish in-flight requests, close the database (which
// releases the DATA_DIR lock), then exit 0. A second signal or 10 s without closing exits 1.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an uncaught error');
  else app.log.info({ signal }, 'closing');
  for (const response of inFlight) response.shouldKeepAlive = false;
  const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(reaper);
  }
});

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  console.error(
    `Cannot start: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`,
  );
  await app.close();
  process.exit(1);
}
