// On-demand TLS in front of Bookplate with Debian's Caddy (the README's Caddyfile): Caddy asks
// GET /internal/tls/ask before issuing a certificate from its internal CA. A verified custom
// domain gets one and serves the site over HTTPS through Caddy; an unverified one is refused.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { startTestDnsServer, type TestDnsServer } from "../../../testing/dns-server.ts";
import { freePort, startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor } from "../../../testing/users.ts";

const CADDY = "/usr/bin/caddy";
const TARGET = "sites.bookplate.test";
const maybe = existsSync(CADDY) ? describe : describe.skip;

let dns: TestDnsServer;
let s: TestServer;
let caddy: ChildProcess | undefined;
let dir: string;
let httpsPort: number;
let caddyLog = "";

async function waitForPort(port: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((ok) => {
      const sock = connect(port, "127.0.0.1", () => {
        sock.end();
        ok(true);
      });
      sock.on("error", () => ok(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Caddy did not listen on ${port}:\n${caddyLog}`);
}

/** GET over HTTPS through Caddy for `host`, trusting only Caddy's own root certificate. */
function httpsGet(host: string, path: string): Promise<{ status: number; body: string; issuer: string }> {
  const ca = readFileSync(join(dir, "data", "caddy", "pki", "authorities", "local", "root.crt"));
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: httpsPort, path, servername: host, headers: { host }, ca, timeout: 15_000 },
      (res) => {
        const cert = (res.socket as import("node:tls").TLSSocket).getPeerCertificate();
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body, issuer: String(cert.issuer?.CN ?? "") });
        });
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end();
  });
}

maybe("custom domains over HTTPS through Caddy's on-demand TLS", () => {
  beforeAll(async () => {
    dns = await startTestDnsServer();
    dns.set(TARGET, { A: ["127.0.0.1"] });
    s = await startTestServer({ DNS_SERVERS: dns.address, DOMAIN_CNAME_TARGET: TARGET });
    dir = mkdtempSync(join(tmpdir(), "bookplate-caddy-"));
    httpsPort = await freePort();
    const httpPort = await freePort();
    const caddyfile = `{
	admin off
	http_port ${httpPort}
	https_port ${httpsPort}
	local_certs
	skip_install_trust
	on_demand_tls {
		ask http://127.0.0.1:${s.port}/internal/tls/ask
	}
}

https:// {
	tls {
		on_demand
	}
	reverse_proxy 127.0.0.1:${s.port}
}
`;
    writeFileSync(join(dir, "Caddyfile"), caddyfile);
    caddy = spawn(CADDY, ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    caddy.stdout?.on("data", (d) => {
      caddyLog += d;
    });
    caddy.stderr?.on("data", (d) => {
      caddyLog += d;
    });
    await waitForPort(httpsPort, 20_000);
  }, 60_000);

  afterAll(async () => {
    caddy?.kill("SIGTERM");
    await s?.close();
    await dns?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("issues a certificate for a verified domain and serves the site through it; refuses others", async () => {
    const a = await createAuthor(s);
    const domain = "www.tls-e2e.com";
    const started = await apiClient(s, a).domain.$put({ json: { domain } });
    const token = ((await started.json()) as { records: { type: string; value: string }[] }).records.find(
      (r) => r.type === "TXT",
    )?.value;
    dns.set(`_bookplate.${domain}`, { TXT: [token ?? ""] });
    dns.set(domain, { CNAME: TARGET });

    // Before it is verified, Caddy asks, hears no, and completes no handshake for it.
    await expect(httpsGet(domain, "/")).rejects.toThrow();

    expect((await readJson(apiClient(s, a).domain.verify.$post())).body.check.ok).toBe(true);
    const page = await httpsGet(domain, "/contact").catch((e: Error) => {
      throw new Error(`${e.message}\nCaddy's log:\n${caddyLog}`);
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain(a.name);
    expect(page.issuer).toMatch(/Caddy Local Authority/);

    // A host nobody verified is still refused.
    await expect(httpsGet("www.not-ours.com", "/")).rejects.toThrow();
  }, 60_000);
});
