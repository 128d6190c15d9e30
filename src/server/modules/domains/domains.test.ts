// Custom domains against a real DNS server on 127.0.0.1: what the author is told for each way
// the records can be wrong, what the site does once the domain is verified, the background
// re-check, two authors wanting one domain, and the TLS terminator's question.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainVerifications, subscriptions } from "../../../db/schema/index.ts";
import { callApi, type Json } from "../../../testing/api-client.ts";
import { startTestDnsServer, type TestDnsServer } from "../../../testing/dns-server.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { runDomainChecks } from "../../jobs/domain-checks.job.ts";
import { createDnsLookup } from "../../lib/dns.ts";
import { DOMAIN_CHECKS } from "./domains.service.ts";

const TARGET = "sites.bookplate-hosting.com";
const OUR_A = "192.0.2.10";
const NOT_PUBLIC =
  "That name is not a public domain, so readers could never reach it. Enter a domain you registered with a domain provider, like janeauthor.com";

let dns: TestDnsServer;

/** A new author with a bio, so that the About page these tests read is one readers see (ADR 052). */
async function authorWithBio() {
  const a = await createAuthor(s);
  await s.api("/api/profile", { method: "PATCH", cookie: a.cookie, json: { bio: "<p>Bio</p>" } });
  return a;
}

let s: TestServer;
beforeAll(async () => {
  dns = await startTestDnsServer();
  dns.set(TARGET, { A: [OUR_A] });
  s = await startTestServer({
    DNS_SERVERS: dns.address,
    DOMAIN_CNAME_TARGET: TARGET,
    DOMAIN_A_RECORDS: OUR_A,
  });
});
afterAll(async () => {
  await s?.close();
  await dns?.close();
});

const start = (a: TestAuthor, domain: string) => callApi(s, a, "PUT", "/api/domain", { domain });
const verify = (a: TestAuthor) => callApi(s, a, "POST", "/api/domain/verify");
const state = (a: TestAuthor) => callApi(s, a, "GET", "/api/domain");
const tokenOf = (body: Json) => body.records.find((r: Json) => r.type === "TXT").value as string;

describe("adding a domain", () => {
  it("shows the TXT record with a fresh token and a CNAME to our target for a subdomain", async () => {
    const a = await authorWithBio();
    expect((await state(a)).body).toMatchObject({ domain: null, status: "none", records: [] });
    const r = await start(a, "WWW.Jane-Books.com");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ domain: "www.jane-books.com", status: "pending", verifiedAt: null });
    expect(r.body.records).toEqual([
      {
        type: "TXT",
        name: "_bookplate.www.jane-books.com",
        value: expect.stringMatching(/^bookplate-verify-[0-9a-f]{32}$/),
        purpose: "verification",
      },
      { type: "CNAME", name: "www.jane-books.com", value: TARGET, purpose: "traffic" },
    ]);
    expect(r.body.liveUrl).toBe(r.body.subdomainUrl);
    // The same domain again keeps its token; another one gets a new one.
    expect(tokenOf((await start(a, "www.jane-books.com")).body)).toBe(tokenOf(r.body));
    expect(tokenOf((await start(a, "books.jane-books.com")).body)).not.toBe(tokenOf(r.body));
  });

  it("shows address records for an apex domain, which cannot be a CNAME", async () => {
    const a = await authorWithBio();
    const r = await start(a, "janeapex.co.uk");
    expect(r.body.records.map((x: Json) => [x.type, x.name, x.value])).toEqual([
      ["TXT", "_bookplate.janeapex.co.uk", tokenOf(r.body)],
      ["A", "janeapex.co.uk", OUR_A],
    ]);
  });

  it("stores an international name in its punycode form", async () => {
    const a = await authorWithBio();
    expect((await start(a, "bücher.com")).body.domain).toBe("xn--bcher-kva.com");
  });

  it("refuses each kind of bad input with its own message and changes nothing", async () => {
    const a = await authorWithBio();
    await start(a, "www.keep-me.com");
    const cases: [unknown, string][] = [
      ["", "Please enter your domain name"],
      ["https://www.janebooks.com", "Enter the domain only, without http:// or https://"],
      ["janebooks.com/books", "Enter the domain only, without a path (nothing after a /)"],
      ["janebooks.com:8080", "Enter the domain without a port number"],
      ["192.168.1.10", "Enter a domain name, not an IP address"],
      ["[::1]", "Enter a domain name, not an IP address"],
      ["*.janebooks.com", "Wildcard domains are not supported: enter one domain, like www.janeauthor.com"],
      ["janebooks", "Please enter a valid domain name, like janeauthor.com"],
      ["jane books.com", "Please enter a valid domain name, like janeauthor.com"],
      ["evil.localhost", NOT_PUBLIC],
      [`x.${TARGET}`, "That is one of our own addresses: your free subdomain already works without a custom domain."],
      [42, "Please enter your domain name"],
    ];
    for (const [domain, message] of cases) {
      const r = await callApi(s, a, "PUT", "/api/domain", { domain });
      expect(r.status, String(domain)).toBe(400);
      expect(r.body.error).toMatchObject({ code: "validation_failed", field: "domain", message });
    }
    expect((await callApi(s, a, "PUT", "/api/domain", { domain: "a.com", extra: 1 })).status).toBe(400);
    expect((await state(a)).body.domain).toBe("www.keep-me.com");
  });

  it("puts the custom-domain add-on on the subscription while there is a domain", async () => {
    const a = await authorWithBio();
    const addon = async () =>
      (await s.database.db.select().from(subscriptions).where(eq(subscriptions.userId, a.id)))[0]?.customDomainAddon;
    expect(await addon()).toBe(false);
    await start(a, "www.addon.com");
    expect(await addon()).toBe(true);
    await callApi(s, a, "DELETE", "/api/domain");
    expect(await addon()).toBe(false);
    // A refused domain adds nothing.
    await start(a, "https://nope.com");
    expect(await addon()).toBe(false);
  });

  it("needs a signed-in author, and shows and changes only the author's own domain", async () => {
    const a = await authorWithBio();
    const b = await authorWithBio();
    await start(a, "www.only-a.com");
    expect((await s.api("/api/domain")).status).toBe(401);
    expect((await s.api("/api/domain", { method: "PUT", json: { domain: "x.com" } })).status).toBe(401);
    expect((await state(b)).body).toMatchObject({ domain: null, status: "none" });
    expect((await callApi(s, b, "DELETE", "/api/domain")).status).toBe(200);
    expect((await verify(b)).status).toBe(404);
    expect((await state(a)).body.domain).toBe("www.only-a.com");
  });
});

describe("Verify tells the author what is wrong, one case at a time", () => {
  it("walks from a domain that does not exist to a verified one", async () => {
    const a = await authorWithBio();
    const domain = "www.walk.com";
    const token = tokenOf((await start(a, domain)).body);
    // One check per step: an author's checks are limited (ten in ten minutes).
    const problem = async () => (await verify(a)).body.check;
    let c = await problem();

    expect(c).toMatchObject({ ok: false, problem: "no_such_domain" });
    expect(c.message).toContain(`We can't find ${domain} in DNS`);

    dns.set(domain, { A: ["203.0.113.5"] });
    c = await problem();
    expect(c).toMatchObject({ ok: false, problem: "no_txt" });
    expect(c.message).toContain(`We can't see the TXT record at _bookplate.${domain} yet`);

    dns.set(`_bookplate.${domain}`, { TXT: ["bookplate-verify-somethingelse"] });
    c = await problem();
    expect(c).toMatchObject({ ok: false, problem: "txt_mismatch" });
    expect(c.message).toContain('has a different value ("bookplate-verify-somethingelse")');

    dns.set(`_bookplate.${domain}`, { TXT: [token] });
    c = await problem();
    expect(c).toMatchObject({ ok: false, problem: "points_elsewhere" });
    expect(c.message).toContain(`${domain} points to 203.0.113.5 at the moment`);

    dns.set(domain, { CNAME: "old-host.example.test" });
    dns.set("old-host.example.test", { A: ["203.0.113.9"] });
    expect((await problem()).message).toBe(
      `${domain} points to old-host.example.test at the moment. Change it to ${TARGET}, as shown below.`,
    );

    dns.set(domain, {});
    c = await problem();
    expect(c).toMatchObject({ ok: false, problem: "no_pointer" });
    expect(c.message).toContain(`Add the CNAME record below (to ${TARGET})`);

    dns.set(domain, { fail: true });
    dns.set(`_bookplate.${domain}`, { fail: true });
    c = await problem();
    expect(c).toMatchObject({ ok: false, problem: "dns_failed" });
    expect(c.message).toContain("did not answer");

    dns.set(`_bookplate.${domain}`, { TXT: [token] });
    dns.set(domain, { CNAME: TARGET });
    const done = await verify(a);
    expect(done.status).toBe(200);
    expect(done.body.check).toMatchObject({ ok: true, message: "Custom domain updated successfully!" });
    expect(done.body.state).toMatchObject({ status: "verified", liveUrl: `http://${domain}` });
    expect(done.body.state.verifiedAt).toEqual(expect.any(String));
    // The last check is kept for the section to show.
    expect((await state(a)).body.lastCheck).toMatchObject({ ok: true });
  });

  it("verifies an apex domain whose A record is ours, and a TXT value split into strings", async () => {
    const a = await authorWithBio();
    const domain = "apex-ok.com";
    const token = tokenOf((await start(a, domain)).body);
    dns.set(`_bookplate.${domain}`, { TXT: [[token.slice(0, 20), token.slice(20)]] });
    dns.set(domain, { A: [OUR_A] });
    expect((await verify(a)).body.check.ok).toBe(true);
  });
});

describe("names that are not public, and how often an author may check (ADR 049)", () => {
  it("refuses single-label, reserved and private-use names with one message and changes nothing", async () => {
    const a = await authorWithBio();
    await start(a, "www.keep-this.com");
    const names = [
      "books.localhost",
      "printer.local",
      "db.internal",
      "nas.lan",
      "router.home.arpa",
      "jane.test",
      "www.jane-books.example",
      "example.com",
      "www.example.org",
      "nope.invalid",
      "abcdefghij.onion",
      "10.in-addr.arpa",
      "files.corp",
      "wiki.intranet",
      "box.home",
      "api.alt",
    ];
    for (const domain of names) {
      const r = await callApi(s, a, "PUT", "/api/domain", { domain });
      expect(r.status, domain).toBe(400);
      expect(r.body.error, domain).toMatchObject({ code: "validation_failed", field: "domain", message: NOT_PUBLIC });
    }
    // A single label is no domain at all.
    for (const domain of ["intranet", "localhost", "printer."]) {
      expect((await callApi(s, a, "PUT", "/api/domain", { domain })).body.error.message, domain).toBe(
        "Please enter a valid domain name, like janeauthor.com",
      );
    }
    expect((await state(a)).body.domain).toBe("www.keep-this.com");
    // Nothing was looked up for any of them.
    expect(dns.asked.filter((n) => names.some((x) => n === x || n.endsWith(`.${x}`)))).toEqual([]);
  });

  it("never asks the resolver about a non-public name claimed before, and answers as for an unknown one", async () => {
    const a = await authorWithBio();
    // What our resolver would say about an internal name: the author must not learn it.
    dns.set("db.internal", { A: ["10.0.0.7"] });
    dns.set("_bookplate.db.internal", { TXT: ["bookplate-verify-x"] });
    await s.database.db
      .insert(domainVerifications)
      .values({ userId: a.id, domain: "db.internal", verificationToken: "bookplate-verify-x" });
    const before = dns.asked.length;
    const r = await verify(a);
    expect(r.status).toBe(200);
    expect(r.body.check).toMatchObject({
      ok: false,
      problem: "no_such_domain",
      message: "We can't find db.internal in DNS. Check the spelling, and that the domain is registered and active.",
    });
    expect(dns.asked.slice(before).filter((n) => n.endsWith("internal"))).toEqual([]);
  });

  it("names a private address only as such when a public name points into a private network", async () => {
    const a = await authorWithBio();
    const domain = "www.points-inside.com";
    const token = tokenOf((await start(a, domain)).body);
    dns.set(`_bookplate.${domain}`, { TXT: [token] });
    dns.set(domain, { A: ["10.20.30.40", "203.0.113.77"] });
    const { check } = (await verify(a)).body;
    expect(check.problem).toBe("points_elsewhere");
    expect(check.message).toContain("points to a private network address, 203.0.113.77 at the moment");
    expect(check.message).not.toContain("10.20.30.40");
  });

  it(`allows ${DOMAIN_CHECKS.max} checks in ten minutes per author, then 429 with Retry-After and no lookup`, async () => {
    const a = await authorWithBio();
    const b = await authorWithBio();
    const domain = "www.checked-often.com";
    await start(a, domain);
    await start(b, "www.other-author.com");
    for (let i = 0; i < DOMAIN_CHECKS.max; i++) expect((await verify(a)).status).toBe(200);
    const before = dns.asked.length;
    const res = await s.api("/api/domain/verify", { method: "POST", cookie: a.cookie });
    expect(res.status).toBe(429);
    const retry = Number(res.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(600);
    const body = (await res.json()) as Json;
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/please check again in (a minute|\d+ minutes)/);
    expect(dns.asked.slice(before)).toEqual([]);
    // The last check stays the one that ran; another author checks freely.
    expect((await state(a)).body.lastCheck).toMatchObject({ ok: false, problem: "no_such_domain" });
    expect((await verify(b)).status).toBe(200);
  });
});

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

    const removed = await callApi(s, a, "DELETE", "/api/domain");
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
    const deps = {
      db: s.database.db,
      env: { appOrigin: s.url, sitesDomain: "localhost", domainTarget: { cname: TARGET, a: [OUR_A], aaaa: [] } },
      dns: createDnsLookup([dns.address]),
      mailer: {
        send: async (m: { to: string; subject: string; text: string }) => void mails.push(m),
        check: async () => ({ ok: true, detail: "" }),
        close() {},
      },
    };
    const mails: { to: string; subject: string; text: string }[] = [];
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
