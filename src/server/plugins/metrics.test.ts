import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.ts';

/** The value of `http_requests_total` for `method` and `status` in a scrape. */
function answered(text: string, method: string, status: number): number {
  const line = text
    .split('\n')
    .find((l) =>
      l.startsWith(
        `http_requests_total{method="${method}",status="${status}"}`,
      ),
    );
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe('http_requests_total', () => {
  it('counts every answer by method and status, across scrapes', async () => {
    const app = Fastify();
    new Metrics().register(app, null);
    app.get('/ok', async () => ({ ok: true }));
    app.post('/ok', async (_request, reply) => reply.code(201).send({}));
    try {
      const scrape = async () => (await app.inject('/metrics')).body;
      for (let i = 0; i < 3; i++) await app.inject('/ok');
      await app.inject({ method: 'POST', url: '/ok' });
      await app.inject('/nowhere');
      const first = await scrape();
      expect(answered(first, 'GET', 200)).toBe(3);
      expect(answered(first, 'POST', 201)).toBe(1);
      expect(answered(first, 'GET', 404)).toBe(1);
      // Each scrape adds what was answered since the last one: nothing twice, nothing lost.
      await app.inject('/ok');
      const second = await scrape();
      // The first scrape's own answer, and one more GET /ok.
      expect(answered(second, 'GET', 200)).toBe(5);
      expect(answered(second, 'POST', 201)).toBe(1);
      expect(answered(second, 'GET', 404)).toBe(1);
    } finally {
      await app.close();
    }
  });
});
