/**
 * A delivery-only process (`npm run worker`): the workers of the durable queue without the HTTP
 * server, for PostgreSQL deployments where API nodes run with DELIVERY_WORKERS=0. Reads the same
 * environment as main.ts; DELIVERY_WORKERS (at least 1 here) sets how many workers it runs.
 */
import { pino } from 'pino';
import { loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/open.ts';
import { startDelivery } from './delivery/engine.ts';
import { Waker } from './delivery/waker.ts';
import { closeOnSignals } from './shutdown.ts';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
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
let stop: () => Promise<void>;
try {
  const db = await openDatabase(config);
  const delivery = await startDelivery({
    config: { ...config.delivery, workers },
    databaseUrl: config.databaseUrl,
    db,
    logger: log,
    wake: new Waker(),
  }).catch(async (error) => {
    await db.close();
    throw error;
  });
  stop = async () => {
    await delivery.stop();
    await db.close();
  };
} catch (error) {
  console.error(`Cannot start: ${(error as Error).message}`);
  process.exit(1);
}
log.info({ workers }, 'delivery worker started');

// SIGTERM/SIGINT: stop fetching, let the batches in hand finish (pending submits answered or
// their jobs given back), close the database, exit 0 within SHUTDOWN_TIMEOUT_SECONDS; a repeated
// signal (npm forwards the process group's) does not cut this short.
closeOnSignals({ timeoutMs: config.shutdown.timeoutMs, log }, () => stop());
