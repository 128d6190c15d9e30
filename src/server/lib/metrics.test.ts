import { Histogram, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s, startFileServer } from "../../testing/file-server.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { REQUEST_BUCKETS, RequestDurations } from "./metrics.ts";

describe("the request duration histogram", () => {
  it("reads exactly as prom-client's Histogram with the same buckets and observations", async () => {
    const ours = new Registry();
    const durations = new RequestDurations();
    ours.registerMetric(durations as never);
    const theirs = new Registry();
    const reference = new Histogram({
      name: durations.name,
      help: durations.help,
      labelNames: ["method", "host", "status"] as const,
      buckets: [...REQUEST_BUCKETS],
      registers: [theirs],
    });
    // On the bounds, between them, past the last one; several label sets, met out of order.
    const seen: [string, string, number, number][] = [
      ["GET", "subdomain", 200, 0.0004],
      ["GET", "subdomain", 200, 0.005],
      ["GET", "app", 404, 0.3],
      ["POST", "custom", 303, 2.5],
      ["GET", "subdomain", 200, 7],
      ["GET", "app", 404, 0.0100001],
      ["HEAD", "subdomain", 304, 0],
    ];
    for (const [method, host, status, seconds] of seen) {
      durations.observe(method, host, status, seconds);
      reference.observe({ method, host, status: String(status) }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="GET",host="subdomain",status="200"} 2',
    );
    const json = (await ours.getMetricsAsJSON())[0];
    const referenceJson = (await theirs.getMetricsAsJSON())[0];
    expect(json?.values.map((v) => [v.labels, v.value])).toEqual(referenceJson?.values.map((v) => [v.labels, v.value]));
    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain("_bucket");
  });
});

describe("/metrics without a token (loopback only)", () => {
  startFileServer({ TRUST_PROXY: "false" });

  it("answers a direct loopback caller on the app host", async () => {
    const res = await s.onHost("localhost", "/metrics");
    expect(res.status).toBe(200);
    expect(res.body).toContain("process_cpu_user_seconds_total");
  });

  it("does not exist on tenant hosts or custom domains", async () => {
    for (const host of ["jane.localhost", "books.example.org"]) {
      const res = await s.onHost(host, "/metrics");
      expect(res.status).toBe(404);
      expect(res.body).not.toContain("process_cpu_user_seconds_total");
    }
  });
});

describe("/metrics behind a trusted reverse proxy on the same machine", () => {
  startFileServer({ TRUST_PROXY: "true" });

  it("refuses a remote client relayed by the proxy (the socket is loopback, the client is not)", async () => {
    const res = await s.onHost("localhost", "/metrics", { "x-forwarded-for": "203.0.113.9" });
    expect(res.status).toBe(403);
    expect(res.body).not.toContain("process_cpu_user_seconds_total");
  });

  it("judges by the proxy's own (last) hop, not one the client made up", async () => {
    const res = await s.onHost("localhost", "/metrics", { "x-forwarded-for": "127.0.0.1, 203.0.113.9" });
    expect(res.status).toBe(403);
  });

  it("answers a loopback client that the proxy relayed", async () => {
    const res = await s.onHost("localhost", "/metrics", { "x-forwarded-for": "127.0.0.1" });
    expect(res.status).toBe(200);
  });
});

// One server at a time: the process's scheduler takes a job name once.
describe("/metrics behind a trusted reverse proxy, with METRICS_TOKEN", () => {
  let withToken: TestServer;
  beforeAll(async () => {
    withToken = await startTestServer({ TRUST_PROXY: "true", METRICS_TOKEN: "metrics-secret-token" });
  });
  afterAll(() => withToken?.close());

  it("answers a relayed remote client with the token, and not without it", async () => {
    const xff = { "x-forwarded-for": "203.0.113.9" };
    expect((await withToken.onHost("localhost", "/metrics", xff)).status).toBe(403);
    const res = await withToken.onHost("localhost", "/metrics", {
      ...xff,
      authorization: "Bearer metrics-secret-token",
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain("process_cpu_user_seconds_total");
  });
});
