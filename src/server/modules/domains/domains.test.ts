// Custom domains against a real DNS server on 127.0.0.1: what the author is told for each way
// the records can be wrong, and names that are not public. What the site does once the domain is
// verified, the background re-check, two authors wanting one domain and the TLS terminator's
// question are in domains-verified.test.ts.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { domainVerifications, subscriptions } from "../../../db/schema/index.ts";
import { apiClient, callApi, type Json, readJson } from "../../../testing/api-client.ts";
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
import { DOMAIN_CHECKS } from "./domains.service.ts";

const NOT_PUBLIC =
  "That name is not a public domain, so readers could never reach it. Enter a domain you registered with a domain provider, like janeauthor.com";

startDomainServers();

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
      // A number among the cases on purpose, which the typed client refuses to send.
      const r = await callApi(s, a, "PUT", "/api/domain", { domain });
      expect(r.status, String(domain)).toBe(400);
      expect(r.body.error).toMatchObject({ code: "validation_failed", field: "domain", message });
    }
    // An unknown field on purpose, which the typed client refuses to send.
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
    await readJson(apiClient(s, a).domain.$delete());
    expect(await addon()).toBe(false);
    // A refused domain adds nothing.
    await start(a, "https://nope.com");
    expect(await addon()).toBe(false);
  });

  it("needs a signed-in author, and shows and changes only the author's own domain", async () => {
    const a = await authorWithBio();
    const b = await authorWithBio();
    await start(a, "www.only-a.com");
    expect((await apiClient(s).domain.$get()).status).toBe(401);
    expect((await apiClient(s).domain.$put({ json: { domain: "x.com" } })).status).toBe(401);
    expect((await state(b)).body).toMatchObject({ domain: null, status: "none" });
    expect((await readJson(apiClient(s, b).domain.$delete())).status).toBe(200);
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
      // A number among the cases on purpose, which the typed client refuses to send.
      const r = await callApi(s, a, "PUT", "/api/domain", { domain });
      expect(r.status, domain).toBe(400);
      expect(r.body.error, domain).toMatchObject({ code: "validation_failed", field: "domain", message: NOT_PUBLIC });
    }
    // A single label is no domain at all.
    for (const domain of ["intranet", "localhost", "printer."]) {
      expect((await readJson(apiClient(s, a).domain.$put({ json: { domain } }))).body.error.message, domain).toBe(
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
    const res = await apiClient(s, a).domain.verify.$post();
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
