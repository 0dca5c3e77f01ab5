/**
 * `http_request_duration_seconds{method,route,status_class}`: a Prometheus histogram of the time
 * from a request's arrival to its answer, kept in plain arrays and written out by prom-client's
 * registry when scraped.
 *
 * Why not prom-client's Histogram: its `observe` validates and hashes the labels and allocates
 * on every call; here an answer bumps two numbers of a series found by one Map lookup
 * (RequestCounts in metrics.ts), and the text is built only when scraped.
 */
import type { Metric } from 'prom-client';

/** Upper bounds, in seconds: from a cached GET (~1 ms) to a request near its timeout. */
export const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
] as const;

/** The route label of an answer that matched no route (a 404 of the not-found handler). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route label: the matched route's URL template (`/api/clients/:clientId`), never the URL
 * itself, so the label's values are bounded by the routes registered; `unmatched` otherwise.
 */
export function routeLabel(template: string | undefined): string {
  return template === undefined || template === '' ? UNMATCHED_ROUTE : template;
}

/** `2xx` for 200–299, and so on: five values at most. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** One series: requests of a method, route and status class. */
export class DurationSeries {
  /** Answers per bucket, not cumulative; the last one is +Inf. */
  readonly counts = new Float64Array(DURATION_BUCKETS.length + 1);
  sum = 0;
  count = 0;
  readonly labels: { method: string; route: string; status_class: string };
  constructor(labels: DurationSeries['labels']) {
    this.labels = labels;
  }

  observe(seconds: number): void {
    let bucket = 0;
    while (
      bucket < DURATION_BUCKETS.length &&
      seconds > DURATION_BUCKETS[bucket]!
    )
      bucket += 1;
    this.counts[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

const NAME = 'http_request_duration_seconds';

/** The histogram as a metric of prom-client's registry (what `registerMetric` reads of one). */
export class RequestDuration {
  readonly name = NAME;
  readonly help =
    'HTTP requests from arrival to answer, by method, route template and status class';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, DurationSeries>();

  /** The series of these labels, made on first use (a bounded number of them: see routeLabel). */
  series(method: string, route: string, status: number): DurationSeries {
    const status_class = statusClass(status);
    const key = `${method} ${route} ${status_class}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = new DurationSeries({ method, route, status_class });
      this.#series.set(key, series);
    }
    return series;
  }

  async get() {
    const values: {
      labels: Record<string, string | number>;
      value: number;
      metricName: string;
    }[] = [];
    for (const series of this.#series.values()) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, index) => {
        cumulative += series.counts[index]!;
        values.push({
          labels: { ...series.labels, le },
          value: cumulative,
          metricName: `${NAME}_bucket`,
        });
      });
      values.push(
        {
          labels: { ...series.labels, le: '+Inf' },
          value: series.count,
          metricName: `${NAME}_bucket`,
        },
        { labels: series.labels, value: series.sum, metricName: `${NAME}_sum` },
        {
          labels: series.labels,
          value: series.count,
          metricName: `${NAME}_count`,
        },
      );
    }
    return { name: NAME, help: this.help, type: this.type, values };
  }

  reset(): void {
    this.#series.clear();
  }

  /** Registers it in `registry` (prom-client's types know only its own metric classes). */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
