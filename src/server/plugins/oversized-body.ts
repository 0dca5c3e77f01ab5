import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';

/** Bodies announced up to this size are read to their end before the 413 is sent. */
export const DRAIN_LIMIT = 16 * 1024 * 1024;
/** A client sending slower than this gives up its connection instead. */
const DRAIN_TIMEOUT_MS = 30_000;

const TOO_LARGE = 'Request body is too large';

/** Reads and discards the request body; false when it did not end in time. */
function drain(request: FastifyRequest): Promise<boolean> {
  const raw = request.raw;
  return new Promise((done) => {
    const timer = setTimeout(() => finish(false), DRAIN_TIMEOUT_MS);
    function finish(ended: boolean) {
      clearTimeout(timer);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      done(ended);
    }
    const onEnd = () => finish(true);
    const onClose = () => finish(false);
    raw.on('end', onEnd);
    raw.on('close', onClose);
    raw.on('error', onClose);
    raw.resume();
  });
}

/**
 * A body over the limit gets a 413 the client can read. Fastify answers as soon as it sees the
 * Content-Length and closes the connection, and a client still uploading then fails on a
 * broken pipe without ever reading the answer (a 5 MB body did). So a body announced up to
 * DRAIN_LIMIT is read to its end and thrown away first, then answered on a connection that
 * stays open; a larger one is answered at once and its connection closed, so nobody can make
 * the server read without bound.
 */
export function oversizedBodies(app: FastifyInstance, bodyLimit: number): void {
  app.addHook('onRequest', async (request) => {
    const announced = Number(request.headers['content-length']);
    if (!(announced > bodyLimit)) return;
    if (announced <= DRAIN_LIMIT && (await drain(request))) {
      throw new HttpError(413, TOO_LARGE);
    }
    throw new HttpError(413, TOO_LARGE, { connection: 'close' });
  });
}
