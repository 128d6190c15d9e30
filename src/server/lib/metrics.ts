// Prometheus metrics: process defaults plus request counts and latency by host kind.
import { collectDefaultMetrics, Gauge, type Metric, Registry } from "prom-client";

export type Metrics = { registry: Registry; requestDuration: RequestDurations };

/** What the page cache holds, read when metrics are scraped. */
export type PageCacheSize = { size: number; byteSize: number };

export function createMetrics(pageCache?: PageCacheSize | null): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (pageCache) {
    new Gauge({
      name: "page_cache_pages",
      help: "Rendered public pages held in this process's page cache",
      registers: [registry],
      collect() {
        this.set(pageCache.size);
      },
    });
    new Gauge({
      name: "page_cache_bytes",
      help: "Bytes the page cache counts its pages as (bounded by PAGE_CACHE_MB)",
      registers: [registry],
      collect() {
        this.set(pageCache.byteSize);
      },
    });
  }
  const requestDuration = new RequestDurations();
  // Not one of prom-client's classes, but what its registry reads of one (get, reset).
  registry.registerMetric(requestDuration as unknown as Metric);
  return { registry, requestDuration };
}

/** Seconds: the upper bounds of the request duration histogram's buckets. */
export const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

type DurationRow = {
  labels: { method: string; host: string; status: string };
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
};

type ValuePair = {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
};

/**
 * `http_request_duration_seconds`, observed on every request, the fast path's cached pages
 * included. prom-client's own Histogram builds a closure and a label hash on each observation,
 * and keys its buckets by their bounds. That cost a cached page 2–4 µs of the server's ~33 µs
 * (ADR 042). This keeps one row per label set, found by one string key. When scraped, it gives
 * the registry the values a prom-client Histogram with the same buckets would; metrics.test.ts
 * compares the two texts.
 */
export class RequestDurations {
  readonly name = "http_request_duration_seconds";
  readonly help = "HTTP request duration by method, host kind and status";
  readonly type = "histogram";
  readonly aggregator = "sum";
  private rows = new Map<string, DurationRow>();

  /** The row observed last and its labels: a run of like requests (cached pages) builds no key. */
  private last: { method: string; host: string; status: number; row: DurationRow } | undefined;

  observe(method: string, host: string, status: number, seconds: number): void {
    const last = this.last;
    const row =
      last && last.status === status && last.method === method && last.host === host
        ? last.row
        : this.rowOf(method, host, status);
    let i = 0;
    while (i < REQUEST_BUCKETS.length && seconds > (REQUEST_BUCKETS[i] as number)) i++;
    (row.counts[i] as number)++;
    row.sum += seconds;
  }

  private rowOf(method: string, host: string, status: number): DurationRow {
    const key = `${method} ${host} ${status}`;
    let row = this.rows.get(key);
    if (!row) {
      row = {
        labels: { method, host, status: String(status) },
        counts: new Float64Array(REQUEST_BUCKETS.length + 1),
        sum: 0,
      };
      this.rows.set(key, row);
    }
    this.last = { method, host, status, row };
    return row;
  }

  /** The registry's text format reads the label set apart from each bucket's bound. */
  getForPromString() {
    const values: ValuePair[] = [];
    const bucket = `${this.name}_bucket`;
    for (const row of this.rows.values()) {
      let seen = 0;
      REQUEST_BUCKETS.forEach((le, i) => {
        seen += row.counts[i] as number;
        values.push({ labels: { le }, sharedLabels: row.labels, value: seen, metricName: bucket });
      });
      const count = seen + (row.counts[REQUEST_BUCKETS.length] as number);
      values.push(
        { labels: { le: "+Inf" }, sharedLabels: row.labels, value: count, metricName: bucket },
        { labels: {}, sharedLabels: row.labels, value: row.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: row.labels, value: count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form: each value's labels in one set. */
  get() {
    const metric = this.getForPromString();
    return {
      ...metric,
      values: metric.values.map(({ labels, sharedLabels, value, metricName }) => ({
        labels: { ...labels, ...sharedLabels },
        value,
        metricName,
      })),
    };
  }

  reset(): void {
    this.rows.clear();
    this.last = undefined;
  }
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Metrics are for the operator: a bearer token when METRICS_TOKEN is set, else loopback only. */
export function mayReadMetrics(remote: string | undefined, authorization: string | undefined, token?: string) {
  if (token) return authorization === `Bearer ${token}`;
  return remote !== undefined && LOOPBACK.test(remote);
}
