/**
 * Whether this pass runs on a PostgreSQL server: TEST_DATABASE_URL, which the `api` project's
 * setup sets (engine-postgres.ts: the server given, else the run's own cluster) and the
 * `api-pglite` pass removes (engine-pglite.ts). A test file is imported after its setup files,
 * so the value is the pass's.
 *
 * The one gate for "needs a PostgreSQL server" (several processes on one database, a
 * connection cut or restarted, row locks across nodes, sizes too slow on PGlite), spelled
 * `describe.skipIf(!onPostgres)` or `it.skipIf(!onPostgres)` at the call: Vitest's static test
 * listing (`vitest list`, the editor plugins) reads skipIf calls, not wrappers of its own.
 * Gates that mean something else (root only, the embedded binaries can run, a tool installed)
 * keep their own condition.
 */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
