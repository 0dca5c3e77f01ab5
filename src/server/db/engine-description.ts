/**
 * Which database engine this server runs on and where, as the start log and GET /api/version
 * say it (CONTRACT.md "Running it in production"). Never a credential: a DATABASE_URL is
 * shown as host, port and database only.
 */
import type { Config } from '../config.ts';
import type { Db } from './client.ts';

export const ENGINE_KINDS = [
  'postgres-embedded',
  'pglite',
  'postgres',
] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

export interface EngineDescription {
  kind: EngineKind;
  /** The embedded engine's folder, `memory` for an in-memory PGlite, or `host:port/database`. */
  where: string;
}

/** The engine of an open database: the embedded PostgreSQL of DATA_DIR, PGlite, or DATABASE_URL's server. */
export function describeEngine(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  db: Pick<Db, 'kind' | 'embedded'>,
): EngineDescription {
  if (db.kind === 'pglite') {
    return {
      kind: 'pglite',
      where: config.dataDir.startsWith('memory://') ? 'memory' : config.dataDir,
    };
  }
  if (db.embedded) return { kind: 'postgres-embedded', where: config.dataDir };
  return { kind: 'postgres', where: serverOf(config.databaseUrl ?? '') };
}

/** `host:port/database` of a postgres:// URL, without its user and password. */
export function serverOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'unknown';
  }
}
