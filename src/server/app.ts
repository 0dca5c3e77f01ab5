import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { buildInfo } from './build-info.ts';
import type { Config } from './config.ts';
import { engineInUse } from './db/open.ts';
import { schemaVersion } from './features/operations/repo.ts';
import { createDeps, settleDeps } from './deps.ts';
import type { DeliveryTuning } from './delivery/engine.ts';
import { delivery } from './delivery/plugin.ts';
import { httpServerOptions, limitConnections } from './http-server-options.ts';
import { ensureBootstrapAdmin } from './features/users/service.ts';
import { apiDocs } from './plugins/api-docs.ts';
import { consoleStatic } from './plugins/console.ts';
import { database } from './plugins/database.ts';
import { handleErrors } from './plugins/error-handler.ts';
import { oversizedBodies } from './plugins/oversized-body.ts';
import { AccessLog, loggerOptions } from './plugins/logging.ts';
import { Metrics } from './plugins/metrics.ts';
import { Readiness } from './plugins/readiness.ts';
import { requestIdFor } from './plugins/request-id.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { apiRoutes } from './routes.ts';
import { backups } from './backup/plugin.ts';

export const BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route with its final options (scope, role): read by tests and docs. */
    routeTable: readonly RouteOptions[];
  }
}

/** What tests may shorten (never set in production): delivery's timers, the inbound sweep's. */
export type AppTuning = DeliveryTuning & {
  /** How often this node stores overdue inbound parts (INBOUND_SWEEP_MS). */
  inboundSweepMs?: number;
};

/**
 * Builds the whole server: database opened and migrated, every route registered. `tuning`
 * shortens delivery's timers for tests; production never passes it.
 */
export async function buildApp(
  config: Config,
  appTuning: AppTuning = {},
): Promise<FastifyInstance> {
  const { inboundSweepMs, ...tuning } = appTuning;
  const app = Fastify({
    logger: loggerOptions(config),
    logController: new AccessLog(),
    // Our own check of an incoming X-Request-Id (Fastify's requestIdHeader takes any value).
    requestIdHeader: false,
    genReqId: requestIdFor,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    // Opening a large embedded database (recovery, migrations) may take longer than the
    // default 10 s per plugin; a failure still stops the start with its own message.
    pluginTimeout: 0,
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

  await app.register(database, { config });
  await logIdentity(app);
  app.decorate('readiness', new Readiness(() => app.db.query('SELECT 1')));
  const metrics = new Metrics();
  const deps = createDeps(config, app.db, app.log);
  // Closes after delivery (registered later, so stopped first) and before the database.
  await app.register(
    fp(async (scope) => {
      scope.addHook('onClose', () => settleDeps(deps));
    }),
  );
  await ensureBootstrapAdmin(app.db, config.admin);
  deps.deliveryWake.onSend((state, messages) =>
    metrics.accepted(state, messages),
  );
  deps.optOutCount.listen((source, count) =>
    metrics.delivery.optOuts(source, count),
  );
  deps.inbound.observe(metrics.inbound);
  // Every node: whichever sweeps first stores an overdue message (settleDeps stops it).
  deps.inbound.start(inboundSweepMs);
  try {
    await app.register(delivery, {
      config,
      wake: deps.deliveryWake,
      receipts: deps.deliveryReceipts,
      observer: metrics.delivery,
      tuning,
    });
  } catch (error) {
    await app.db.close();
    throw error;
  }
  metrics.watch(app.delivery);

  await securityHeaders(app);
  await app.register(import('@fastify/compress'), { threshold: 1024 });
  metrics.register(app, config.metricsToken);
  await app.register(backups, { config, registry: metrics.registry });
  await apiDocs(app, config);
  await app.register(apiRoutes(deps), { prefix: '/api' });
  await consoleStatic(app, config.webDir);
  return app;
}

/**
 * The start log's first line (CONTRACT.md "What it is"): the release, commit, database schema
 * and engine, as GET /api/version and build_info say them; written once the database is open
 * and migrated, the moment the schema version is known.
 */
async function logIdentity(app: FastifyInstance) {
  const { name, version, commit } = buildInfo();
  const engine = engineInUse(app.db);
  const schema = await schemaVersion(app.db);
  app.log.info(
    { version, commit, schemaVersion: schema, engine },
    `${name} ${version} (commit ${commit?.slice(0, 12) ?? 'unknown'}), ` +
      `schema ${schema ?? 'none'}, database ${engine.kind} (${engine.where})`,
  );
}
