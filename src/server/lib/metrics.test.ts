import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

describe("/metrics without a token (loopback only)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ TRUST_PROXY: "false" });
  });
  afterAll(() => s?.close());

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
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ TRUST_PROXY: "true" });
  });
  afterAll(() => s?.close());

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
