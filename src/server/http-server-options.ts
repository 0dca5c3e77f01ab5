import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { FastifyHttpOptions } from 'fastify';
import type { Config } from './config.ts';

type HttpConfig = Pick<Config, 'http' | 'trustProxy'>;

/**
 * The Fastify constructor options that bound how long a client may hold a connection. Node's
 * defaults (and Fastify's: no socket timeout, 72 s keep-alive) let slow-header and idle clients
 * keep thousands of sockets open until file descriptors run out.
 */
export function httpServerOptions(config: HttpConfig) {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } =
    config.http;
  return {
    connectionTimeout: config.http.connectionTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    requestTimeout: requestTimeoutMs,
    // One hop (the socket's peer, the proxy): the client is the address the proxy added to
    // X-Forwarded-For, which a client cannot forge by sending the header itself.
    trustProxy: config.trustProxy
      ? (_address: string, hop: number) => hop < 1
      : false,
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // Node looks for expired headers and requests on this interval (30 s by default), so a
      // timeout fires up to one interval late.
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    },
  } satisfies FastifyHttpOptions<Server>;
}

/** File descriptors kept for everything but client sockets: the database, logs, static files. */
export const RESERVED_FILE_DESCRIPTORS = 256;

/**
 * Caps the connections open at once; the server drops those over the cap at once. The cap stays
 * below the process's open-file limit, so a flood of connections cannot starve the database of
 * file descriptors. Returns the cap applied.
 */
export function limitConnections(server: Server, config: HttpConfig): number {
  const fileLimit = openFileLimit();
  const cap =
    fileLimit === undefined
      ? config.http.maxConnections
      : Math.max(
          1,
          Math.min(
            config.http.maxConnections,
            fileLimit - RESERVED_FILE_DESCRIPTORS,
          ),
        );
  server.maxConnections = cap;
  return cap;
}

/** The soft limit of open files of this process (Linux), or undefined when unknown or unlimited. */
export function openFileLimit(limits = readLimits()): number | undefined {
  const line = limits?.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

function readLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}
