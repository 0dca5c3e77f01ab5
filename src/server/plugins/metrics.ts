/**
 * GET /metrics (CONTRACT.md "Operating a fleet"): Prometheus text format from prom-client, with
 * the contract's names and the process's own metrics. Counters are this node's: with several
 * nodes, each counts what it did and Prometheus sums them; the queue depth is the whole queue's.
 *
 * Guarded: with METRICS_TOKEN set, `Authorization: Bearer <token>` (401 without, 403 wrong);
 * without it only loopback callers (others 403).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import { DELIVERY_METHODS } from '../../shared/limits.ts';
import { buildInfo } from '../build-info.ts';
import { forbidden, HttpError } from '../errors.ts';
import {
  routeLabel,
  RequestDuration,
  type DurationSeries,
} from './request-duration.ts';

/** What the metrics read from delivery when scraped (the app wires it once delivery runs). */
export interface MetricsSources {
  queueDepth(): Promise<number>;
  /** Connectors holding a connection, by method: whether each is up. */
  binds(): Partial<Record<string, boolean>>;
  /** The methods whose messages go to the built-in simulator (no connector configured). */
  readonly simulatedMethods: readonly string[];
}

/**
 * prom-client's default gauges named like counters (`_total`), which `promtool check metrics`
 * flags: each is the sum of the labelled gauge of the same name without the suffix, which
 * PromQL gives (`sum(nodejs_active_handles)`), so they are left out rather than renamed (as
 * prom-client's maintainers propose: prometheus/client_js#283).
 */
export const DROPPED_DEFAULT_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

const SMPP_METHOD = 'MELROSE_SMPP';

/** One registry per app (tests build several in one process). */
export class Metrics {
  readonly registry = new Registry();
  #sources: MetricsSources | null = null;
  readonly #messages = new Counter({
    name: 'sms_messages_total',
    help: 'Messages this node moved into each state',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly #submits = new Histogram({
    name: 'sms_submit_duration_seconds',
    help: 'From a submit to a provider to its answer',
    labelNames: ['method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly #inbound = new Counter({
    name: 'sms_inbound_total',
    help: 'Inbound messages this node stored, by delivery method (a concatenated one once)',
    labelNames: ['method'] as const,
    registers: [this.registry],
  });
  readonly #inboundUnrouted = new Counter({
    name: 'sms_inbound_unrouted_total',
    help: 'Inbound messages to a number nobody holds: acknowledged and dropped',
    registers: [this.registry],
  });
  readonly #callbacks = new Counter({
    name: 'status_callback_attempts_total',
    help: 'Status callback POSTs by outcome (ok: a 2xx answer)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly #optOuts = new Counter({
    name: 'sms_optouts_total',
    help: "Numbers this node opted out of a client's messages, by source (keyword: a STOP; api: PUT …/optouts/{number})",
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  /**
   * Answers not yet added to http_requests_total, by method, status and route ("GET200/api/x"),
   * each with its series of http_request_duration_seconds. A request bumps numbers here; the
   * counter takes the counts when scraped. prom-client's own `inc` and `observe` hash and
   * validate their labels on every call, a few µs of a request that costs ~80.
   */
  readonly #answered = new Map<
    string,
    {
      labels: { method: string; status: string };
      count: number;
      duration: DurationSeries;
    }
  >();
  readonly #durations = new RequestDuration();
  readonly #requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method and status',
    labelNames: ['method', 'status'] as const,
    registers: [this.registry],
    collect: () => {
      for (const entry of this.#answered.values()) {
        if (entry.count === 0) continue;
        this.#requests.inc(entry.labels, entry.count);
        entry.count = 0;
      }
    },
  });

  constructor() {
    const sources = () => this.#sources;
    // Every method's series from the start: a rate over a series that appears late misses its
    // first increase.
    for (const method of DELIVERY_METHODS) this.#inbound.inc({ method }, 0);
    this.registry.registerMetric(this.#durations.asMetric());
    const build = buildInfo();
    new Gauge({
      name: 'build_info',
      help: 'Always 1: the release and git commit this process runs',
      labelNames: ['version', 'commit'] as const,
      registers: [this.registry],
    }).set({ version: build.version, commit: build.commit ?? 'unknown' }, 1);
    new Gauge({
      name: 'delivery_method_simulated',
      help: '1 for a delivery method whose messages go to the built-in simulator (no connector configured on this node), else 0',
      labelNames: ['method'] as const,
      registers: [this.registry],
      collect() {
        const from = sources();
        if (!from) return;
        for (const method of DELIVERY_METHODS) {
          this.set({ method }, from.simulatedMethods.includes(method) ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'sms_queue_depth',
      help: 'Delivery jobs waiting for a worker (the whole queue, every node)',
      registers: [this.registry],
      async collect() {
        const from = sources();
        if (from) this.set(await from.queueDepth());
      },
    });
    new Gauge({
      name: 'smpp_bind_up',
      help: "1 while this node's SMPP bind is up (0: down, or no bind on this node)",
      registers: [this.registry],
      collect() {
        this.set(sources()?.binds()[SMPP_METHOD] ? 1 : 0);
      },
    });
    // The event loop delay histogram samples with a timer: at prom-client's 10 ms it woke an
    // idle node 100 times a second (about half of its idle CPU); a block of the loop still shows
    // in it, as a late sample.
    collectDefaultMetrics({
      register: this.registry,
      eventLoopMonitoringPrecision: 200,
    });
    for (const name of DROPPED_DEFAULT_GAUGES)
      this.registry.removeSingleMetric(name);
  }

  /** Where the gauges read delivery's state (set once delivery has started). */
  watch(sources: MetricsSources): void {
    this.#sources = sources;
  }

  /** The delivery engine's observer (a DeliveryObserver) and the send path's count. */
  readonly delivery = {
    messages: (state: string, count: number) =>
      this.#messages.inc({ state }, count),
    submitted: (method: string, seconds: number) =>
      this.#submits.observe({ method }, seconds),
    callback: (outcome: 'ok' | 'failed') => this.#callbacks.inc({ outcome }),
    optOuts: (source: 'keyword' | 'api', count: number) =>
      this.#optOuts.inc({ source }, count),
  };

  /** The inbound writer's observer (an InboundObserver). */
  readonly inbound = {
    stored: (method: string, count: number) =>
      this.#inbound.inc({ method }, count),
    unrouted: (count: number) => this.#inboundUnrouted.inc(count),
  };

  /** Messages accepted (or scheduled, or cancelled) by this node's send path. */
  accepted(
    state: 'ACCEPTED' | 'SCHEDULED' | 'CANCELED' = 'ACCEPTED',
    messages = 1,
  ): void {
    this.#messages.inc({ state }, messages);
  }

  /** Counts every answer and serves GET /metrics (not under /api: scrapers expect it here). */
  register(app: FastifyInstance, token: string | null): void {
    const answered = this.#answered;
    const durations = this.#durations;
    app.addHook('onResponse', (request, reply, done) => {
      const { method } = request;
      const status = reply.statusCode;
      // The route's URL template (undefined for the not-found handler): bounded values.
      const route = request.routeOptions.url;
      const key = method + status + route;
      const entry = answered.get(key);
      if (entry === undefined) {
        const series = durations.series(method, routeLabel(route), status);
        series.observe(reply.elapsedTime / 1000);
        answered.set(key, {
          labels: { method, status: String(status) },
          count: 1,
          duration: series,
        });
      } else {
        entry.count += 1;
        entry.duration.observe(reply.elapsedTime / 1000);
      }
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      allowScrape(request, token);
      const text = await this.registry.metrics();
      return reply
        .header('content-type', this.registry.contentType)
        .header('cache-control', 'no-store')
        .send(text);
    });
  }
}

function allowScrape(request: FastifyRequest, token: string | null): void {
  if (token === null) {
    if (!isLoopback(request.ip)) {
      throw forbidden(
        'Metrics answer only loopback callers (set METRICS_TOKEN)',
      );
    }
    return;
  }
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) {
    throw new HttpError(
      401,
      'Metrics need Authorization: Bearer <METRICS_TOKEN>',
      {
        'www-authenticate': 'Bearer',
      },
    );
  }
  if (!sameSecret(match[1]!, token)) throw forbidden('Wrong metrics token');
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return v4.startsWith('127.') || ip === '::1';
}
