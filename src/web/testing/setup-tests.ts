import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { clearAuthNotice } from '../lib/auth-notice';
import { server } from './msw-server';
import { disposeRouters } from './render-app';

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
