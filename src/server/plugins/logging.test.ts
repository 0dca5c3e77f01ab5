import { Writable } from 'node:stream';
import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { CENSOR, loggerOptions, redactLine } from './logging.ts';

/** The lines a logger built with `options` writes for `log`. */
function lines(
  options: LoggerOptions,
  log: (logger: pino.Logger) => void,
): string[] {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  log(pino({ ...options, timestamp: false }, sink));
  return written;
}

/** What pino's own `redact` option did with the same paths before. */
const PINO_REDACT: LoggerOptions = {
  level: 'trace',
  redact: {
    paths: [
      'req.headers.authorization',
      '*.password',
      '*.currentPassword',
      '*.newPassword',
      '*.secret',
    ],
    censor: CENSOR,
  },
};

const ours = loggerOptions({ logLevel: 'trace' } as Config) as LoggerOptions;

function sample(logger: pino.Logger) {
  logger.info(
    { req: { method: 'GET', url: '/api/health' } },
    'incoming request',
  );
  logger.info(
    { res: { statusCode: 200 }, responseTime: 1.5 },
    'request completed',
  );
  logger.info(
    {
      body: {
        email: 'a@example.test',
        password: 'hunter2',
        nested: { secret: 'deep' },
      },
    },
    'a body',
  );
  logger.warn(
    { params: { currentPassword: 'old', newPassword: 'new' } },
    'change',
  );
  logger.error(
    {
      req: { headers: { authorization: 'Basic eDp5', host: 'h' }, secret: 's' },
    },
    'with headers',
  );
  logger.child({ client: { id: 'c1', secret: 'child-secret' } }).info('bound');
  logger.info(
    { note: 'the word "password" in a value', list: [{ password: 'x' }] },
    'm',
  );
  logger.info(
    { password: 'top-level' },
    'top-level keys are not redacted by *.password',
  );
}

describe('log redaction', () => {
  it('censors exactly what pino’s redact paths censored', () => {
    expect(lines(ours, sample)).toEqual(lines(PINO_REDACT, sample));
  });

  it('hides passwords, secrets and the Authorization header', () => {
    const output = lines(ours, sample).join('');
    for (const secret of [
      'hunter2',
      'old',
      '"new"',
      'eDp5',
      'child-secret',
      '"s"',
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain(`"password":"${CENSOR}"`);
  });

  it('passes a line naming no secret through untouched', () => {
    const line =
      '{"level":30,"reqId":"r","res":{"statusCode":200},"msg":"request completed"}\n';
    expect(redactLine(line)).toBe(line);
  });
});
