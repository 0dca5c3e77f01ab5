import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorCodeOfStatus, type ErrorCode } from '../../shared/error-codes.ts';
import { HttpError, pgCode } from '../errors.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/** Turns a zod issue path into the field name users know, e.g. `body.recipient`. */
function describeValidation(error: FastifyError): string {
  const issues = error.validation ?? [];
  const messages = issues.map((issue) => {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const where = [error.validationContext, field].filter(Boolean).join('.');
    // zod's default messages do not name the field; ours do ("Sender cannot be empty").
    return /^(Invalid input|Too (big|small)|Unrecognized|Expected|Invalid option)/.test(
      issue.message ?? '',
    )
      ? `${where}: ${issue.message}`
      : (issue.message ?? 'Invalid value');
  });
  return [...new Set(messages)].join('; ') || error.message;
}

/** PostgreSQL codes of a lost or refused connection: class 08, shutdowns, too many clients. */
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Node's codes of a socket to the database that failed. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** What pg and PGlite throw, without a code, when the connection or the database is gone. */
const DRIVER_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
  'PGlite is closing',
]);

/**
 * True when the database could not be reached: the caller may try again later (503), nothing
 * is wrong with the request. Looks through `cause` as drivers wrap errors.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, cause } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (CONNECTION_SQLSTATES.has(code) || SOCKET_CODES.has(code)) return true;
  }
  if (typeof message === 'string' && DRIVER_MESSAGES.has(message)) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** Seconds a client is asked to wait when the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER = 5;

/** `code`: the stable name a program branches on (src/shared/error-codes.ts). */
export function errorBody(
  statusCode: number,
  message: string,
  code: ErrorCode = errorCodeOfStatus(statusCode),
) {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    code,
    message,
  };
}

/** A 5xx answer's body: the error's shape plus the request id, which finds it in the log. */
export function serverErrorBody(
  statusCode: number,
  message: string,
  requestId: string,
  code?: ErrorCode,
) {
  return { ...errorBody(statusCode, message, code), requestId };
}

/**
 * Every error answer has one shape, `{statusCode, error, message}`: a 4xx says what was wrong,
 * a 5xx hides its details behind the request id that is in the log.
 */
export function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    // An error raised before the security headers' hook (a 413 for a body announced too large)
    // still names its request.
    if (!reply.hasHeader(REQUEST_ID_HEADER)) {
      reply.header(REQUEST_ID_HEADER, request.id);
    }
    if (error instanceof HttpError) {
      return reply
        .headers(error.headers)
        .code(error.statusCode)
        .send(
          error.statusCode >= 500
            ? serverErrorBody(
                error.statusCode,
                error.message,
                request.id,
                error.code,
              )
            : errorBody(error.statusCode, error.message, error.code),
        );
    }
    // PostgreSQL text cannot hold NUL (22021): such input is the caller's error, not a 500.
    if (pgCode(error) === '22021') {
      return reply
        .code(400)
        .send(errorBody(400, 'Text must not contain NUL characters'));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(errorBody(400, describeValidation(error)));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error(
        { err: error, method: request.method, url: request.url },
        'database unavailable',
      );
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER))
        .send(
          serverErrorBody(
            503,
            'The service is temporarily unavailable. Try again shortly.',
            request.id,
          ),
        );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 400s: a body it could not read (malformed JSON, an empty JSON body).
      const code = status === 400 ? 'bad_request' : errorCodeOfStatus(status);
      return reply.code(status).send(errorBody(status, error.message, code));
    }
    request.log.error(
      {
        err: error,
        method: request.method,
        url: request.url,
        params: request.params,
      },
      'request failed',
    );
    return reply
      .code(500)
      .send(
        serverErrorBody(
          500,
          `Internal Server Error (request id ${request.id})`,
          request.id,
        ),
      );
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        errorBody(
          404,
          `Route ${request.method}:${request.url.split('?')[0]} not found`,
        ),
      ),
  );
}
