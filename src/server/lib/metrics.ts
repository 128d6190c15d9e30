// Prometheus metrics: process defaults plus request counts and latency by host kind.
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

export type Metrics = { registry: Registry; requestDuration: Histogram<"method" | "host" | "status"> };

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
