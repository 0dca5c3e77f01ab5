import { setupServer } from 'msw/node';

/**
 * The one way component tests fake HTTP: `mockApi` (mock-api.ts) installs a test's table of
 * answers here, and error branches add their handler on top with `server.use`.
 */
export const server = setupServer();
