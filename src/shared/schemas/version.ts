import { z } from 'zod';

/** GET /api/version: what this server is (CONTRACT.md "Running it in production"). */
export const VersionSchema = z.object({
  /** The release, from package.json. */
  version: z.string(),
  /** The git commit the server runs from; null when it does not run from a checkout. */
  commit: z.string().nullable(),
  /** The latest versioned migration applied to the database, e.g. "029"; null before any. */
  schemaVersion: z.string().nullable(),
  /** The database engine and where it keeps its data (never a credential). */
  engine: z.object({
    kind: z.enum(['postgres-embedded', 'pglite', 'postgres']),
    where: z.string(),
  }),
});

export type Version = z.infer<typeof VersionSchema>;
