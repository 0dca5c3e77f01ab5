import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';

/** Bodies announced up to this size are read to their end before the 413 is sent. */
export const DRAIN_LIMIT = 16 * 1024 * 1024;
/** A client sending slower than this gives up its connection instead. */
const DRAIN_TIMEOUT_MS = 30_000;

const TOO_LARGE = 'Request body is too large';

/**
 * Reads and discards the rest of the request body; false when it did not end in time or ran
 * past DRAIN_LIMIT (the connection is then closed with the answer).
 */
function drain(request: FastifyRequest): Promise<boolean> {
  const raw = request.raw;
  if (raw.readableEnded) return Promise.resolve(true);
  return new Promise((done) => {
    let read = 0;
    const timer = setTimeout(() => finish(false), DRAIN_TIMEOUT_MS);
    function finish(ended: boolean) {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      done(ended);
    }
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_LIMIT) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(false);
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('close', onClose);
    raw.on('error', onClose);
    raw.resume();
  });
}

/**
 * A body over the limit (the server's, or a route's larger one) gets a 413 the client can read. Fastify answers as soon as it sees the
 * Content-Length and closes the connection, and a client still uploading then fails on a
 * broken pipe without ever reading the answer (a 5 MB body did). So a body announced up to
 * DRAIN_LIMIT is read to its end and thrown away first, then answered on a connection that
 * stays open; a larger one is answered at once and its connection closed, so nobody can make
 * the server read without bound. A chunked body gets the same once Fastify finds it too large.
 */
export function oversizedBodies(app: FastifyInstance, bodyLimit: number): void {
  // A callback hook, not an async one: most requests (a GET, a small body) leave at once
  // without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const announced = Number(request.headers['content-length']);
    // Most requests end here, before the route's options are built.
    if (!(announced > bodyLimit)) return done();
    // A route may take more than the server's limit (a price list import).
    const limit = Math.max(bodyLimit, request.routeOptions.bodyLimit ?? 0);
    if (!(announced > limit)) return done();
    if (announced > DRAIN_LIMIT) {
      return done(new HttpError(413, TOO_LARGE, { connection: 'close' }));
    }
    void drain(request).then((ended) =>
      done(
        ended
          ? new HttpError(413, TOO_LARGE)
          : new HttpError(413, TOO_LARGE, { connection: 'close' }),
      ),
    );
  });
  // A body without Content-Length (chunked) is found too large only while Fastify reads it:
  // read the rest the same way before that 413 goes out.
  app.addHook('onError', async (request, reply, error) => {
    if ((error as FastifyError).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return;
    if (!(await drain(request))) reply.header('connection', 'close');
  });
}
