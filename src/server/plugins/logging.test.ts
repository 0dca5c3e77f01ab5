import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { AccessLog, CENSOR, loggerOptions, redactLine } from './logging.ts';

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

/** The parsed lines an app logging with our options at `logLevel` writes for `paths`. */
async function accessLines(
  logLevel: string,
  requests: { url: string; headers?: Record<string, string> }[],
): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const stream = {
    write(line: string) {
      written.push(line);
    },
  };
  const app = Fastify({
    logger: {
      ...(loggerOptions({ logLevel } as Config) as LoggerOptions),
      stream,
    },
    logController: new AccessLog(),
  });
  app.get('/ok', async () => ({ status: 'ok' }));
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  try {
    for (const request of requests) await app.inject(request);
  } finally {
    await app.close();
  }
  return written
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.reqId !== undefined);
}

describe('access log', () => {
  const basic = `Basic ${Buffer.from('ada@example.test:hunter2').toString('base64')}`;

  it('writes one line per request with the request, status, time and request id', async () => {
    const lines = await accessLines('info', [
      { url: '/ok?page=2', headers: { authorization: basic } },
      { url: '/boom' },
      { url: '/nowhere' },
    ]);
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(3);
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
    const [ok, boom, nowhere] = completed;
    expect(ok).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/ok?page=2', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(typeof ok!.reqId).toBe('string');
    expect(typeof ok!.responseTime).toBe('number');
    expect(boom).toMatchObject({
      req: { url: '/boom' },
      res: { statusCode: 500 },
    });
    expect(nowhere).toMatchObject({ res: { statusCode: 404 } });
    // Each request's lines share its id; no two requests share one.
    expect(new Set(completed.map((l) => l.reqId)).size).toBe(3);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain(basic.slice('Basic '.length));
  });

  it('still writes the incoming line at debug', async () => {
    const lines = await accessLines('debug', [{ url: '/ok' }]);
    expect(lines.map((l) => l.msg)).toEqual([
      'incoming request',
      'request completed',
    ]);
    expect(lines[0]).toMatchObject({ level: 20, req: { url: '/ok' } });
    expect(lines[0]!.reqId).toBe(lines[1]!.reqId);
  });
});
