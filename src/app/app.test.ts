// The app's outer shell: probes, headers, host routing and the SPA fallback.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SEED_DEMO: "true" });
});
afterAll(async () => {
  await s?.close();
});

/** GET with an arbitrary Host header (fetch does not let us set it). */
function getWithHost(host: string, path: string) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((ok, fail) => {
    const req = request({ host: "127.0.0.1", port: s.port, path, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => ok({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", fail);
    req.end();
  });
}

describe("probes", () => {
  it("answers /healthz and /readyz", async () => {
    expect(await (await fetch(`${s.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await (await fetch(`${s.url}/readyz`)).json();
    expect(ready.status).toBe("ready");
  });

  it("serves metrics to loopback callers", async () => {
    await fetch(`${s.url}/healthz`);
    const res = await fetch(`${s.url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/http_request_duration_seconds_bucket/);
  });
});

describe("app host", () => {
  it("sends a CSP and the other secure headers", async () => {
    const res = await fetch(`${s.url}/login`);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'self'/);
    expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("redirects /main to /", async () => {
    const res = await fetch(`${s.url}/main`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/");
  });

  it("answers 404 for unknown pages and API paths", async () => {
    expect((await fetch(`${s.url}/no-such-page`)).status).toBe(404);
    const api = await fetch(`${s.url}/api/no-such-thing`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.message).toBe("Not found");
  });
});

describe("tenant hosts", () => {
  it("serves a known subdomain from the database", async () => {
    const res = await getWithHost(`demo.localhost:${s.port}`, "/");
    expect(res.status).toBe(200);
    expect(res.body).toContain("Eleanor Penrose");
  });

  it("answers an unknown subdomain with 'Author not found', and its preview address too", async () => {
    const res = await getWithHost(`nobody.localhost:${s.port}`, "/");
    expect(res.status).toBe(404);
    expect(res.body).toContain("<title>Author not found</title>");
    expect(res.body).not.toContain("Website not found");
    const preview = await getWithHost(`localhost:${s.port}`, "/author/nobody/about");
    expect(preview.status).toBe(404);
    expect(preview.body).toContain("Author not found");
  });

  it("never serves the API or the SPA on a tenant host", async () => {
    const res = await getWithHost(`demo.localhost:${s.port}`, "/api/profile");
    expect(res.body).not.toContain('"profile"');
    expect(res.body).not.toContain("Not authenticated");
  });

  it("ignores an unverified custom domain", async () => {
    const res = await getWithHost("www.someone-else.example", "/");
    expect(res.status).toBe(404);
  });
});
