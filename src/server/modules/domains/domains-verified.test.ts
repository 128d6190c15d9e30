// A verified custom domain against a real DNS server on 127.0.0.1: the site served there, one
// author per domain, the background re-check, and the TLS terminator's question.
import { describe, expect, it } from "vitest";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import {
  authorWithBio,
  dns,
  OUR_A,
  s,
  start,
  startDomainServers,
  state,
  TARGET,
  tokenOf,
  verify,
} from "../../../testing/domains.ts";
import { mailRecorder } from "../../../testing/mail-recorder.ts";
import { runDomainChecks } from "../../jobs/domain-checks.job.ts";
import { createDnsLookup } from "../../lib/dns.ts";

startDomainServers();

describe("a verified domain", () => {
  it("serves the site there, with canonical URLs on it; the subdomain redirects; removing it undoes both", async () => {
    const a = await authorWithBio();
    const domain = "www.served.com";
    const token = tokenOf((await start(a, domain)).body);
    expect((await s.onHost(domain, "/about")).body).toContain("Website not found");
    dns.set(`_bookplate.${domain}`, { TXT: [token] });
    dns.set(domain, { CNAME: TARGET });
    expect((await verify(a)).body.check.ok).toBe(true);

    const page = await s.onHost(domain, "/about");
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<link rel="canonical" href="http://${domain}/about"`);
    expect(page.body).toContain(`<meta property="og:url" content="http://${domain}/about"`);
    const sitemap = await s.onHost(domain, "/sitemap.xml");
    expect(sitemap.body).toContain(`<loc>http://${domain}/</loc>`);
    expect(sitemap.body).not.toContain(".localhost");
    const sub = await s.onHost(`${a.subdomain}.localhost`, "/about");
    expect(sub.status).toBe(301);
    expect(sub.headers.location).toBe(`http://${domain}/about`);

    // The bare form of a www. domain redirects to the form the author chose.
    const bare = await s.onHost("served.com", "/books?x=1");
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe(`http://${domain}/books?x=1`);
    expect((await s.api(`/internal/tls/ask?domain=served.com`)).status).toBe(200);

    const removed = await readJson(apiClient(s, a).domain.$delete());
    expect(removed.body).toMatchObject({ domain: null, status: "none" });
    expect((await s.onHost(`${a.subdomain}.localhost`, "/about")).status).toBe(200);
    expect((await s.onHost(domain, "/about")).body).toContain("Website not found");
    expect((await s.onHost("served.com", "/about")).status).toBe(404);
    expect((await s.api(`/internal/tls/ask?domain=served.com`)).status).toBe(404);

    // Added again later: a new token, pending until proven again, then served again.
    const again = await start(a, domain);
    expect(again.body.status).toBe("pending");
    expect(tokenOf(again.body)).not.toBe(token);
    expect((await s.onHost(domain, "/about")).body).toContain("Website not found");
    dns.set(`_bookplate.${domain}`, { TXT: [tokenOf(again.body)] });
    expect((await verify(a)).body.check.ok).toBe(true);
    expect((await s.onHost(domain, "/about")).status).toBe(200);
  });

  it("belongs to one author: the first to prove it wins, and nobody can claim it after", async () => {
    const a = await authorWithBio();
    const b = await authorWithBio();
    const domain = "www.contested.com";
    const tokenA = tokenOf((await start(a, domain)).body);
    const tokenB = tokenOf((await start(b, domain)).body);
    expect(tokenA).not.toBe(tokenB);
    dns.set(`_bookplate.${domain}`, { TXT: [tokenB] });
    dns.set(domain, { CNAME: TARGET });
    expect((await verify(b)).body.check.ok).toBe(true);
    // A's token is not there; and once B holds it, A cannot take it even with A's token.
    expect((await verify(a)).body.check.problem).toBe("txt_mismatch");
    dns.set(`_bookplate.${domain}`, { TXT: [tokenA, tokenB] });
    const stolen = await verify(a);
    expect(stolen.status).toBe(409);
    expect(stolen.body.error).toMatchObject({
      code: "domain_taken",
      message: "This domain is already connected to another website.",
    });
    const c = await authorWithBio();
    expect((await start(c, domain)).body.error.code).toBe("domain_taken");
    expect((await s.onHost(domain, "/about")).body).toContain(b.name);
  });

  it("is re-checked in the background: pending ones verify with a mail, lost ones fall back with a mail", async () => {
    const a = await authorWithBio();
    const domain = "www.background.com";
    const token = tokenOf((await start(a, domain)).body);
    dns.set(`_bookplate.${domain}`, { TXT: [token] });
    dns.set(domain, { CNAME: TARGET });
    const mailer = mailRecorder();
    const mails = mailer.sent;
    const deps = {
      db: s.database.db,
      env: { appOrigin: s.url, sitesDomain: "localhost", domainTarget: { cname: TARGET, a: [OUR_A], aaaa: [] } },
      dns: createDnsLookup([dns.address]),
      mailer,
    };
    const first = await runDomainChecks(deps);
    expect(first).toMatchObject({ verified: expect.any(Number) });
    expect((await state(a)).body.status).toBe("verified");
    expect(mails.filter((m) => m.to === a.email).map((m) => m.subject)).toEqual([
      `${domain} is connected to your site`,
    ]);

    // Checked again within the day: nothing to do for it.
    dns.remove(domain);
    await runDomainChecks(deps, new Date(Date.now() + 3600_000));
    expect((await state(a)).body.status).toBe("verified");

    // The next day its records are gone: the site is back on its subdomain, the author told.
    await runDomainChecks(deps, new Date(Date.now() + 25 * 3600_000));
    const after = (await state(a)).body;
    expect(after).toMatchObject({ status: "pending", liveUrl: after.subdomainUrl });
    expect(after.lastCheck).toMatchObject({ ok: false, problem: "no_such_domain" });
    expect(mails.filter((m) => m.to === a.email).map((m) => m.subject)).toEqual([
      `${domain} is connected to your site`,
      `${domain} no longer reaches your site`,
    ]);
    expect((await s.onHost(`${a.subdomain}.localhost`, "/about")).status).toBe(200);
  });
});

describe("GET /internal/tls/ask", () => {
  it("says yes for verified custom domains and our own site hosts, no for anything else", async () => {
    const a = await authorWithBio();
    const domain = "www.tls-ok.com";
    const token = tokenOf((await start(a, domain)).body);
    const ask = async (d: string) => (await s.api(`/internal/tls/ask?domain=${encodeURIComponent(d)}`)).status;
    expect(await ask(domain)).toBe(404);
    dns.set(`_bookplate.${domain}`, { TXT: [token] });
    dns.set(domain, { CNAME: TARGET });
    expect((await verify(a)).body.check.ok).toBe(true);
    expect(await ask(domain)).toBe(200);
    expect(await ask(domain.toUpperCase())).toBe(200);
    expect(await ask(`${a.subdomain}.localhost`)).toBe(200);
    expect(await ask("nobody1234.localhost")).toBe(404);
    expect(await ask("www.unknown.com")).toBe(404);
    expect(await ask("")).toBe(404);
    expect(await ask("../etc/passwd")).toBe(404);
  });
});
