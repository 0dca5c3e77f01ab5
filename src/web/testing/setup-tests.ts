import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { clearAuthNotice } from '../lib/auth-notice';
import { server } from './msw-server';
import { disposeRouters } from './render-app';

// findBy*/waitFor give up after 5 s rather than 1 s: on a busy 2-core machine (CI, or tests
// beside a build) a lazy route can take longer than a second to load in jsdom.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

// Any console.error fails the test: React warnings, failed prop types, act() mistakes.
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

afterEach(() => {
  cleanup();
  disposeRouters();
  server.resetHandlers();
  vi.restoreAllMocks();
  window.localStorage.clear();
  window.location.hash = '';
  clearAuthNotice();
  expect(consoleErrors, 'console.error was called').toEqual([]);
});
