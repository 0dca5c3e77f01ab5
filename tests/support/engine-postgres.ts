import { inject } from 'vitest';

// A setup file of the API project's PostgreSQL pass: each test file runs on the server the
// global setup chose (TEST_DATABASE_URL, or the run's own cluster), read by the files (and
// start-server.ts) before they are loaded.
process.env.TEST_DATABASE_URL = inject('testDatabaseUrl');
