// The marketing site through the real server: every page answers with its head and headings and
// no script, a crawl from the home page finds no broken link, the FAQ is an accordion without
// JavaScript with FAQPage data, the contact form files a ticket and mails the sender a copy, and
// unknown addresses are real 404s.
import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supportTickets } from "../db/schema/index.ts";
import { isSpaRoute } from "../shared/app-routes.ts";
import { CURRENCIES, TIERS } from "../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, MONTHLY_PRICE_MINOR } from "../shared/plans.ts";
import { CONTACT_SENT } from "../shared/schemas/admin.ts";
import { hostRequestBytes, startTestServer, type TestServer } from "../testing/test-server.ts";
import { createSignedInUser } from "../testing/users.ts";
import { STATIC_PAGES } from "./routes.tsx";

let s: TestServer;
beforeAll(async () => {
  // With the demo site: the marketing pages link to it.
  s = await startTestServer({ SEED_DEMO: "true" });
});
afterAll(async () => {
  await s?.close();
});

const contact = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  s.api("/contact", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe("marketing pages", () => {
  it("answers each page with a title, description, canonical, one h1 and no script to run", async () => {
    for (const path of Object.keys(STATIC_PAGES)) {
      const res = await s.api(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html).toContain(`<link rel="canonical" href="${s.url}${path}"/>`);
      expect(html.match(/<h1[\s>]/g), path).toHaveLength(1);
      // JSON-LD data blocks, and at most one small inline enhancement that the policy names by
      // its hash; no other script can run.
      const scripts = [
        ...html.replace(/<script type="application\/ld\+json">.*?<\/script>/g, "").matchAll(/<script>(.*?)<\/script>/g),
      ];
      expect(scripts.length, path).toBeLessThanOrEqual(1);
      const policy = res.headers.get("content-security-policy") ?? "";
      if (scripts[0]) {
        const hash = createHash("sha256")
          .update(scripts[0][1] ?? "")
          .digest("base64");
        expect(policy).toContain(`script-src 'sha256-${hash}'`);
        expect(html).not.toContain(' src="/assets/');
      } else {
        expect(policy).toContain("script-src 'none'");
      }
      expect(html).toContain('aria-label="Legal"');
    }
  });

  it("has no broken link: a crawl from the home page reaches every page", async () => {
    const seen = new Set<string>();
    const queue = ["/"];
    while (queue.length) {
      const path = queue.shift() as string;
      if (seen.has(path)) continue;
      seen.add(path);
      const url = new URL(path, s.url);
      // The app's screens are the SPA's (a 200 with index.html once built); its own tests cover them.
      if (isSpaRoute(url.pathname)) continue;
      const res = await s.api(`${url.pathname}${url.search}`, { redirect: "manual" });
      expect(res.status, `${path} (linked)`).toBeLessThan(400);
      if (!(res.headers.get("content-type") ?? "").startsWith("text/html")) continue;
      if (url.pathname.startsWith("/demo")) continue; // the demo site is tested on its own
      const html = await res.text();
      for (const m of html.matchAll(/href="(\/[^"]*)"/g)) {
        const href = (m[1] ?? "").replace(/&amp;/g, "&").split("#")[0] ?? "";
        if (href && !href.startsWith("//") && !href.startsWith("/assets/") && !seen.has(href)) queue.push(href);
      }
    }
    for (const path of Object.keys(STATIC_PAGES)) expect(seen, path).toContain(path);
  });

  it("lets one FAQ answer be open at a time without JavaScript, with FAQPage data for the 14 questions", async () => {
    const html = await (await s.api("/faq")).text();
    expect(html.match(/<details name="faq"/g)).toHaveLength(14);
    const data = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? "{}");
    expect(data["@type"]).toBe("FAQPage");
    expect(data.mainEntity).toHaveLength(14);
    expect(html).toContain('href="/contact"');
    expect(html).toContain('href="/signup"');
  });

  it("shows pricing in each currency from the price table, remembered for the visit, with no script", async () => {
    for (const currency of CURRENCIES) {
      const res = await s.api(`/pricing?currency=${currency}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      for (const tier of TIERS) {
        const price = formatMoney(MONTHLY_PRICE_MINOR[tier][currency], currency);
        expect(html, `${tier} in ${currency}`).toContain(`data-testid="price-${tier}">${price}</span>`);
        expect(html).toContain(`href="/pricing/choose?tier=${tier}&amp;currency=${currency}"`);
      }
      // The add-on on pricing is the one the wizard, the Domain section and the charge use.
      expect(html).toContain(`+${formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[currency], currency)}/month`);
      // The comparison follows the currency too.
      expect(html).toContain(`From ${formatMoney(MONTHLY_PRICE_MINOR.mini[currency], currency)}`);
      expect(html).toContain(`<link rel="canonical" href="${s.url}/pricing"/>`);
      expect(html).not.toContain("<script>");
      const cookie = res.headers.get("set-cookie") ?? "";
      expect(cookie).toContain(`pricing_currency=${currency}`);
      // The next visit to /pricing in the same browser keeps the choice.
      const again = await (await s.api("/pricing", { headers: { cookie: `pricing_currency=${currency}` } })).text();
      expect(again).toContain(`data-testid="price-midi">${formatMoney(MONTHLY_PRICE_MINOR.midi[currency], currency)}`);
    }
    // Nothing chosen: pounds. An unknown currency is ignored.
    expect(await (await s.api("/pricing?currency=XYZ")).text()).toContain('data-testid="price-mini">£3.99');
    expect(isSpaRoute("/pricing/choose")).toBe(true);
  });

  it("shows the 13 screenshots on the features page as responsive WebP, each opening the large one", async () => {
    const html = await (await s.api("/features")).text();
    const links = [...html.matchAll(/<a href="(\/gallery\/[a-z0-9-]+-1280-[0-9a-f]+\.webp)" data-enlarge=""/g)];
    expect(links).toHaveLength(13);
    expect(html.match(/srcSet="\/gallery\/[^"]+ 640w, \/gallery\/[^"]+ 1280w"/gi)).toHaveLength(13);
    for (const [, href] of links.slice(0, 3)) {
      const img = await s.api(href ?? "");
      expect(img.status).toBe(200);
      expect(img.headers.get("content-type")).toBe("image/webp");
      expect(img.headers.get("cache-control")).toContain("immutable");
    }
    expect((await s.api("/gallery/not-listed.webp")).status).toBe(404);
    expect((await s.api("/gallery/..%2Fgallery.json")).status).toBe(404);
    // The home page shows an author's site and the dashboard.
    expect((await (await s.api("/")).text()).match(/<figure>/g)).toHaveLength(2);
  });

  it("answers an unchanged page with 304 to its ETag", async () => {
    const first = await s.api("/features");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await s.api("/features", { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
  });

  it("sends each page brotli- or gzip-compressed when the browser takes it, the same HTML decoded", async () => {
    const raw = (path: string, headers: Record<string, string>) =>
      hostRequestBytes(s.port, new URL(s.url).hostname, "GET", path, headers);
    for (const path of ["/", "/features", "/pricing"]) {
      const plain = await raw(path, { "accept-encoding": "identity" });
      expect(plain.status, path).toBe(200);
      expect(plain.headers["content-encoding"], path).toBeUndefined();
      expect(plain.headers.vary, path).toContain("Accept-Encoding");
      const html = plain.body.toString("utf8");
      expect(html).toContain("<h1");

      const br = await raw(path, { "accept-encoding": "gzip, br" });
      expect(br.headers["content-encoding"], path).toBe("br");
      expect(br.headers.vary, path).toContain("Accept-Encoding");
      expect(br.body.byteLength, path).toBeLessThan(plain.body.byteLength / 2);
      expect(brotliDecompressSync(br.body).toString("utf8"), path).toBe(html);
      // Another representation, another validator; each answers 304 to its own.
      expect(br.headers.etag).not.toBe(plain.headers.etag);
      const again = await raw(path, { "accept-encoding": "br", "if-none-match": String(br.headers.etag) });
      expect(again.status, path).toBe(304);

      const gz = await raw(path, { "accept-encoding": "gzip" });
      expect(gz.headers["content-encoding"], path).toBe("gzip");
      expect(gunzipSync(gz.body).toString("utf8"), path).toBe(html);
    }
  });

  it("offers a signed-in visitor their dashboard instead of signing in, on every page", async () => {
    const { cookie } = await createSignedInUser(s);
    const header = (html: string) => html.slice(html.indexOf("<header"), html.indexOf("</header>"));
    for (const path of [...Object.keys(STATIC_PAGES), "/pricing", "/no-such-page"]) {
      const out = await s.api(path);
      const signedIn = await s.api(path, { cookie });
      expect(signedIn.status, path).toBe(out.status);
      const outHeader = header(await out.text());
      const inHeader = header(await signedIn.text());
      expect(outHeader, path).toContain('href="/login"');
      expect(outHeader, path).toContain('href="/signup"');
      expect(outHeader, path).not.toContain('href="/dashboard"');
      expect(inHeader, path).toContain('<a href="/dashboard"');
      expect(inHeader, path).toContain("Your dashboard");
      expect(inHeader, path).not.toContain('href="/login"');
      if (out.status === 200) {
        // Two renderings of one address: a cache must keep them apart, and a validator of one
        // must not stand for the other.
        expect(signedIn.headers.get("vary"), path).toContain("Cookie");
        expect(signedIn.headers.get("etag"), path).not.toBe(out.headers.get("etag"));
        const stale = await s.api(path, { cookie, headers: { "if-none-match": out.headers.get("etag") ?? "" } });
        expect(stale.status, path).toBe(200);
      }
    }
    // Any other cookie is not a session.
    const other = await s.api("/features", { cookie: "pricing_currency=EUR" });
    expect(header(await other.text())).toContain('href="/login"');
  });

  it("shows a signed-in author on /pricing the way to their plan, not a free trial", async () => {
    const { cookie } = await createSignedInUser(s);
    const out = await (await s.api("/pricing?currency=EUR")).text();
    expect(out).toContain("Start Free Trial");
    expect(out).toContain("Start your free trial");
    expect(out).not.toContain('data-testid="signed-in-plan"');
    const main = (html: string) => html.slice(html.indexOf('<main id="main">'), html.indexOf("</main>"));
    const signedIn = main(await (await s.api("/pricing?currency=EUR", { cookie })).text());
    expect(signedIn).not.toMatch(/free trial/i);
    expect(signedIn).toContain('<a href="/dashboard/plan"');
    expect(signedIn).toContain("Go to your dashboard");
    for (const tier of TIERS) {
      // Choosing still goes through /pricing/choose, which sends a signed-in author to the plan page.
      expect(signedIn).toContain(`href="/pricing/choose?tier=${tier}&amp;currency=EUR"`);
    }
    expect(signedIn).toContain("Choose Midi");
  });

  it("answers an unknown address with a real 404 page, and lists the pages for crawlers", async () => {
    const res = await s.api("/no-such-page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    const robots = await (await s.api("/robots.txt")).text();
    expect(robots).toContain("Disallow: /dashboard");
    expect(robots).toContain("/sitemap.xml");
    const sitemap = await (await s.api("/sitemap.xml")).text();
    for (const path of ["/features", "/faq", "/pricing", "/terms", "/privacy-legal", "/cookies"]) {
      expect(sitemap).toContain(`${path}</loc>`);
    }
  });
});

describe("contact form", () => {
  it("files a support ticket and mails the sender a fixed acknowledgement", async () => {
    const email = `buyer-${Date.now()}@example.com`;
    const res = await contact({ name: "Ann Reader", email, subject: "Team plans?", message: "Do you do agencies?" });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(CONTACT_SENT.replace("'", "&#x27;"));
    // Bookplate's voice, not an author's.
    expect(page).toContain("We&#x27;ll get back to you soon.");
    expect(page).not.toContain("I&#x27;ll");
    const [ticket] = await s.database.db.select().from(supportTickets).where(eq(supportTickets.email, email));
    expect(ticket).toMatchObject({ userId: null, name: "Ann Reader", subject: "Team plans?", status: "open" });
    const copy = await s.smtp.waitFor(email, "We received your message");
    // Anyone can type any address: nothing they wrote comes back in the mail (ADR 048).
    for (const theirs of ["Ann Reader", "Team plans?", "Do you do agencies?"]) expect(copy.raw).not.toContain(theirs);
  });

  it("says what is wrong, keeps what was typed, and stores nothing", async () => {
    const email = `bad-${Date.now()}@example.com`;
    const res = await contact({ name: " ", email: "not-an-email", subject: "", message: "Kept text" });
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const m of ["Name is required", "Please enter a valid email address", "Subject is required"]) {
      expect(html).toContain(m);
    }
    expect(html).toContain("Kept text");
    expect(
      await s.database.db.select().from(supportTickets).where(eq(supportTickets.email, "not-an-email")),
    ).toHaveLength(0);
    expect(email).toBeTruthy();
  });

  it("tells a bot that fills the hidden field it worked, and keeps nothing", async () => {
    const email = `bot-${Date.now()}@example.com`;
    const res = await contact({ name: "Bot", email, subject: "Buy", message: "Spam", website: "http://spam" });
    expect(res.status).toBe(200);
    expect(await s.database.db.select().from(supportTickets).where(eq(supportTickets.email, email))).toHaveLength(0);
  });

  it("refuses a form body past 64 KB before reading it, and stores nothing", async () => {
    const email = `huge-${Date.now()}@example.com`;
    const res = await contact({ name: "Big", email, subject: "Huge", message: "x".repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect(await s.database.db.select().from(supportTickets).where(eq(supportTickets.email, email))).toHaveLength(0);
  });

  it("limits how many messages one address sends", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await contact({ name: "Flood", email: `flood${i}@example.com`, subject: "Hi", message: "Again" });
      statuses.push(res.status);
    }
    // Earlier tests in this file used some of this address's allowance too.
    expect(statuses.filter((st) => st === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.at(-1)).toBe(429);
  });
});
