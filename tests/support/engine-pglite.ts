// A setup file of the API project's PGlite pass (the files marked `// @also-on-pglite:`, see
// vite.config.ts): without TEST_DATABASE_URL, each server runs on the embedded PGlite, even when
// the run was given a PostgreSQL server for the other pass.
delete process.env.TEST_DATABASE_URL;
