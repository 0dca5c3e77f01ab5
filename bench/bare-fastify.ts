/**
 * The framework's floor for `npm run bench:api`: a bare Fastify from the project's own fastify
 * package, on the same Node, with one route `GET /api/health` → `{status:'ok'}` and nothing else
 * (no logger, no hooks). Run as its own process: `node bench/bare-fastify.ts` with PORT (and
 * HOST, 127.0.0.1 by default); it prints `listening <url>` once it answers.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/api/health', async () => ({ status: 'ok' }));
const url = await app.listen({
  port: Number(process.env.PORT ?? 0),
  host: process.env.HOST ?? '127.0.0.1',
});
console.log(`listening ${url}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
