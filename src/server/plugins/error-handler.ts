import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError, pgCode } from '../errors.ts';

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

export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/**
 * Every error answer has one shape, `{statusCode, error, message}`: a 4xx says what was wrong,
 * a 5xx hides its details behind the request id that is in the log.
 */
export function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .headers(error.headers)
        .code(error.statusCode)
        .send(errorBody(error.statusCode, error.message));
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
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(status, error.message));
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
      .send(errorBody(500, `Internal Server Error (request id ${request.id})`));
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
