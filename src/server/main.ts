import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';

// The only module that touches `process`: tests build the app with their own config.
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

// SIGTERM/SIGINT: stop accepting, finish in-flight requests, close the database (which
// releases the DATA_DIR lock), then exit 0. A second signal or 10 s without closing exits 1.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an uncaught error');
  else app.log.info({ signal }, 'closing');
  await app.close();
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
