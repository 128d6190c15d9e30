// Prometheus metrics: process defaults plus request counts and latency by host kind.
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export type Metrics = { registry: Registry; requestDuration: Histogram<"method" | "host" | "status"> };

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
  const requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, host kind and status",
    labelNames: ["method", "host", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return { registry, requestDuration };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Metrics are for the operator: a bearer token when METRICS_TOKEN is set, else loopback only. */
export function mayReadMetrics(remote: string | undefined, authorization: string | undefined, token?: string) {
  if (token) return authorization === `Bearer ${token}`;
  return remote !== undefined && LOOPBACK.test(remote);
}
