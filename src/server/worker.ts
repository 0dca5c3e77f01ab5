/**
 * A delivery-only process (`npm run worker`): the workers of the durable queue without the API,
 * for PostgreSQL deployments where API nodes run with DELIVERY_WORKERS=0. Reads the same
 * environment as main.ts; DELIVERY_WORKERS (at least 1 here) sets how many workers it runs.
 *
 * With WORKER_PORT set it also listens (on HOST) for an operator's probes and scraper: GET
 * /metrics (this process's submits, bind, callbacks and the queue, with the same guard as the API
 * nodes': METRICS_TOKEN or loopback), GET /api/health and GET /api/ready. Unset: no listener.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { loadConfigOrExit } from './config.ts';
import type { Db } from './db/client.ts';
import { openDatabase } from './db/open.ts';
import { startDelivery } from './delivery/engine.ts';
import { Waker } from './delivery/waker.ts';
import { httpServerOptions, limitConnections } from './http-server-options.ts';
import { InboundInbox } from './inbound/inbox.ts';
import { saveCompileCache } from './memory.ts';
import { handleErrors } from './plugins/error-handler.ts';
import { Metrics } from './plugins/metrics.ts';
import { Readiness } from './plugins/readiness.ts';
import { closeOnSignals } from './shutdown.ts';

const config = loadConfigOrExit(process.env);
if (!config.databaseUrl) {
  // The embedded database belongs to the one server process: its workers run inside it.
  console.error(
    'Invalid configuration:\n  npm run worker needs DATABASE_URL: on the embedded database ' +
      'the delivery workers run inside the server (DELIVERY_WORKERS)',
  );
  process.exit(1);
}

const log = pino({ level: config.logLevel, name: 'delivery-worker' });
const workers = Math.max(1, config.delivery.workers);
const metrics = new Metrics();

/** The worker's own small HTTP server: metrics, liveness, readiness (the database answers). */
async function listen(db: Db, port: number): Promise<FastifyInstance> {
  // The API nodes' rules: X-Forwarded-For's one proxy hop only (TRUST_PROXY), and the header,
  // request and keep-alive timeouts, so a forged hop cannot pass the loopback guard of /metrics
  // and slow clients cannot hold sockets open.
  const app = Fastify(httpServerOptions(config));
  limitConnections(app.server, config);
  handleErrors(app);
  const readiness = new Readiness(() => db.query('SELECT 1'));
  app.decorate('readiness', readiness);
  metrics.register(app, config.metricsToken);
  app.get('/api/health', async () => ({ status: 'ok' }));
  app.get('/api/ready', async (_request, reply) => {
    const status = await readiness.status();
    return reply.code(status === 'ready' ? 200 : 503).send({ status });
  });
  await app.listen({ port, host: config.host });
  return app;
}

let stop: () => Promise<void>;
try {
  const db = await openDatabase(config);
  // This process's SMPP bind receives inbound messages too (the SMSC picks the bind): they are
  // stored here. The API nodes sweep overdue parts.
  const inbound = new InboundInbox(db, log);
  inbound.observe(metrics.inbound);
  const delivery = await startDelivery({
    config: { ...config.delivery, workers },
    databaseUrl: config.databaseUrl,
    db,
    logger: log,
    wake: new Waker(),
    inbound,
    observer: metrics.delivery,
  }).catch(async (error) => {
    await db.close();
    throw error;
  });
  metrics.watch(delivery);
  const http =
    config.workerPort === null
      ? null
      : await listen(db, config.workerPort).catch(async (error) => {
          await delivery.stop();
          await db.close();
          throw error;
        });
  if (http) log.info({ address: http.listeningOrigin }, 'listening');
  stop = async () => {
    // Probes see the drain at once; the listener closes once delivery has stopped.
    http?.readiness.drain();
    await delivery.stop();
    // What the bind received before it closed is written before the database closes.
    await inbound.close();
    await http?.close();
    await db.close();
  };
} catch (error) {
  console.error(`Cannot start: ${(error as Error).message}`);
  process.exit(1);
}
log.info({ workers }, 'delivery worker started');
saveCompileCache();

// SIGTERM/SIGINT: stop fetching, let the batches in hand finish (pending submits answered or
// their jobs given back), close the listener and the database, exit 0 within
// SHUTDOWN_TIMEOUT_SECONDS; a repeated signal (npm forwards the process group's) does not cut this
// short.
closeOnSignals({ timeoutMs: config.shutdown.timeoutMs, log }, () => stop());
