import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { openDatabase } from '../db/open.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open database: the ledger verification reads it, and tests close it under a running server. */
    db: Db;
  }
}

/**
 * Opens and migrates the database and closes it when the app closes. Registered first, so it
 * closes last: every plugin registered after it (services, delivery) has stopped writing by then.
 */
export const database = fp<{ config: Config }>(
  async (app, { config }) => {
    const db = await openDatabase(config);
    app.decorate('db', db);
    app.addHook('onClose', () => db.close());
  },
  { name: 'database' },
);
