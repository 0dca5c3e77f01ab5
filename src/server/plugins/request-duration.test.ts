import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.ts';
import {
  DURATION_BUCKETS,
  RequestDuration,
  routeLabel,
  statusClass,
  UNMATCHED_ROUTE,
} from './request-duration.ts';

describe('route and status labels', () => {
  it('name the route template, or unmatched', () => {
    expect(routeLabel('/api/clients/:clientId')).toBe('/api/clients/:clientId');
    expect(routeLabel(undefined)).toBe(UNMATCHED_ROUTE);
    expect(routeLabel('')).toBe(UNMATCHED_ROUTE);
  });

  it('group statuses by class', () => {
    expect([200, 201, 304, 404, 429, 500, 503].map(statusClass)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
  });
});

describe('RequestDuration', () => {
  it('writes cumulative buckets, +Inf, sum and count per series', async () => {
    const histogram = new RequestDuration();
    const series = histogram.series('GET', '/api/x', 200);
    series.observe(0.003); // first bucket
    series.observe(0.2); // 0.25
    series.observe(100); // +Inf only
    expect(histogram.series('GET', '/api/x', 204)).toBe(series); // same class
    const { values } = await histogram.get();
    const value = (name: string, le?: number | string) =>
      values.find(
        (v) =>
          v.metricName === name && (le === undefined || v.labels.le === le),
      )?.value;
    const name = 'http_request_duration_seconds';
    expect(value(`${name}_bucket`, 0.005)).toBe(1);
    expect(value(`${name}_bucket`, 0.1)).toBe(1);
    expect(value(`${name}_bucket`, 0.25)).toBe(2);
    expect(value(`${name}_bucket`, 30)).toBe(2);
    expect(value(`${name}_bucket`, '+Inf')).toBe(3);
    expect(value(`${name}_count`)).toBe(3);
    expect(value(`${name}_sum`)).toBeCloseTo(100.203);
    expect(
      values.filter((v) => v.metricName === `${name}_bucket`),
    ).toHaveLength(DURATION_BUCKETS.length + 1);
  });
});

describe('http_request_duration_seconds on /metrics', () => {
  it('labels by route template, and every unknown URL as one unmatched series', async () => {
    const app = Fastify();
    new Metrics().register(app, null);
    app.get('/api/items/:itemId', async () => ({ ok: true }));
    try {
      for (let i = 0; i < 5; i++) await app.inject(`/api/items/${i}`);
      for (let i = 0; i < 20; i++)
        await app.inject(`/nowhere/${i}/${Math.random()}`);
      const text = (await app.inject('/metrics')).body;
      const counts = text
        .split('\n')
        .filter((l) => l.startsWith('http_request_duration_seconds_count{'));
      expect(counts).toContain(
        'http_request_duration_seconds_count{method="GET",route="/api/items/:itemId",status_class="2xx"} 5',
      );
      expect(counts).toContain(
        'http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"} 20',
      );
      // No URL of a request is a label value: the series are bounded by the routes.
      expect(text).not.toContain('/nowhere');
      expect(text).not.toMatch(/\/api\/items\/\d/);
      expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    } finally {
      await app.close();
    }
  });
});
