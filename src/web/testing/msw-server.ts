import { setupServer } from 'msw/node';

/** For error branches only (STYLE §3.13): each test adds its handler with `server.use`. */
export const server = setupServer();
