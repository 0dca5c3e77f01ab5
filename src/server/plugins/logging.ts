import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/** pino through Fastify; credentials and secrets never reach the log. */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        '*.password',
        '*.currentPassword',
        '*.newPassword',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
}
