import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import {
  httpServerOptions,
  limitConnections,
  openFileLimit,
  RESERVED_FILE_DESCRIPTORS,
} from './http-server-options.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

describe('httpServerOptions', () => {
  it('passes the configured timeouts to Fastify and to the Node server', () => {
    const options = httpServerOptions(
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '4000',
        HTTP_REQUEST_TIMEOUT_MS: '8000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000',
        HTTP_CONNECTION_TIMEOUT_MS: '9000',
        TRUST_PROXY: 'true',
      }),
    );
    expect(options).toEqual({
      connectionTimeout: 9000,
      keepAliveTimeout: 2000,
      requestTimeout: 8000,
      trustProxy: expect.any(Function),
      http: {
        headersTimeout: 4000,
        requestTimeout: 8000,
        keepAliveTimeout: 2000,
        connectionsCheckingInterval: 1000,
      },
    });
    // One hop is trusted: the proxy itself, never an address a client put in the header.
    const trust = options.trustProxy as (
      address: string,
      hop: number,
    ) => boolean;
    expect(trust('10.0.0.1', 0)).toBe(true);
    expect(trust('203.0.113.9', 1)).toBe(false);
    // Node accepts them as they are.
    const server = createServer(options.http);
    expect(server.headersTimeout).toBe(4000);
    expect(server.requestTimeout).toBe(8000);
  });

  it('checks for expired connections at least as often as the header timeout', () => {
    const options = httpServerOptions(
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '300' }),
    );
    expect(options.http.connectionsCheckingInterval).toBe(300);
  });
});

describe('limitConnections', () => {
  it('sets the configured cap, kept below the open-file limit', () => {
    const server = createServer();
    const cap = limitConnections(
      server,
      loadConfig({ MAX_CONNECTIONS: '100' }),
    );
    expect(cap).toBe(100);
    expect(server.maxConnections).toBe(100);
    const limit = openFileLimit();
    if (limit !== undefined) {
      const huge = limitConnections(
        server,
        loadConfig({ MAX_CONNECTIONS: String(limit * 2) }),
      );
      expect(huge).toBe(limit - RESERVED_FILE_DESCRIPTORS);
      expect(server.maxConnections).toBe(huge);
    }
  });

  it('reads the soft open-file limit of /proc/self/limits', () => {
    expect(openFileLimit(LIMITS)).toBe(1024);
    expect(
      openFileLimit(LIMITS.replace(/1024 /, 'unlimited ')),
    ).toBeUndefined();
    expect(openFileLimit('')).toBeUndefined();
  });
});
