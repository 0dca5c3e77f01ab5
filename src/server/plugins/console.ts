import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built console. Files under assets/ have content hashes in their names, so they
 * are cached for a year; index.html is revalidated on every load so a deploy shows at once.
 */
export async function consoleStatic(
  app: FastifyInstance,
  webDir: string,
): Promise<void> {
  const root = resolve(webDir);
  if (!existsSync(resolve(root, 'index.html'))) {
    app.log.warn({ webDir: root }, 'console not built: run `npm run build`');
    app.get('/', async (request, reply) =>
      reply
        .code(503)
        .type('text/plain')
        .send(
          'The console is not built. Run `npm run build`, then restart the server.\n' +
            `Request id: ${request.id}\n`,
        ),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    index: ['index.html'],
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, path) {
      res.header(
        'cache-control',
        path.includes('/assets/')
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
}
