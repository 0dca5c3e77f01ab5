import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { openDatabase } from './db/open.ts';
import { createDeps, settleDeps } from './deps.ts';
import {
  startDelivery,
  type Delivery,
  type DeliveryTuning,
} from './delivery/engine.ts';
import { httpServerOptions, limitConnections } from './http-server-options.ts';
import { ensureBootstrapAdmin } from './features/users/service.ts';
import { apiDocs } from './plugins/api-docs.ts';
import { consoleStatic } from './plugins/console.ts';
import { handleErrors } from './plugins/error-handler.ts';
import { oversizedBodies } from './plugins/oversized-body.ts';
import { loggerOptions } from './plugins/logging.ts';
import { Metrics } from './plugins/metrics.ts';
import { Readiness } from './plugins/readiness.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { apiRoutes } from './routes.ts';

export const BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route with its final options (scope, role): read by tests and docs. */
    routeTable: readonly RouteOptions[];
    /** The delivery queue and workers of this node (tests race failures and duplicate jobs). */
    delivery: Delivery;
    /** The open database: the ledger verification reads it, and tests close it under a running server. */
    db: Db;
  }
}

/**
 * Builds the whole server: database opened and migrated, every route registered. `tuning`
 * shortens delivery's timers for tests; production never passes it.
 */
export async function buildApp(
  config: Config,
  tuning: DeliveryTuning = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    ...httpServerOptions(config),
  });
  limitConnections(app.server, config);
  // One schema language for requests, answers and the OpenAPI document: zod.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  handleErrors(app);
  oversizedBodies(app, BODY_LIMIT);
  const routeTable: RouteOptions[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => void routeTable.push(route));

  const db = await openDatabase(config);
  app.decorate('db', db);
  app.decorate('readiness', new Readiness(() => db.query('SELECT 1')));
  const metrics = new Metrics();
  let delivery: Delivery | undefined;
  const deps = createDeps(config, db, app.log);
  // Workers stop (their last writes land) before the database closes.
  app.addHook('onClose', async () => {
    await delivery?.stop();
    await settleDeps(deps);
    await db.close();
  });
  await ensureBootstrapAdmin(db, config.admin);
  deps.deliveryWake.onSend(() => metrics.accepted());
  try {
    delivery = await startDelivery({
      config: config.delivery,
      databaseUrl: config.databaseUrl,
      db,
      logger: app.log,
      wake: deps.deliveryWake,
      receipts: deps.deliveryReceipts,
      observer: metrics.delivery,
      ...tuning,
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  app.decorate('delivery', delivery);
  metrics.watch(delivery);

  await securityHeaders(app);
  await app.register(import('@fastify/compress'), { threshold: 1024 });
  metrics.register(app, config.metricsToken);
  await apiDocs(app, config);
  await app.register(apiRoutes(deps), { prefix: '/api' });
  await consoleStatic(app, config.webDir);
  return app;
}
