// What the public site tests share: one real server per test file with the demo seeded, requests
// with any Host header, authors made straight in the database, and readers of the page's markup.
import { request } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import {
  blogPosts,
  books,
  contactSettings,
  legalPages,
  profiles,
  user,
  websiteCustomization,
  websites,
} from "../db/schema/index.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

/** The test file's server, once `startSiteServer()` has started it. */
export let s: TestServer;
type Res = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A request with an arbitrary Host header (fetch forbids setting it). */
export function hit(
  host: string,
  path: string,
  init: { method?: string; form?: Record<string, string>; cookie?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<Res>((resolve, reject) => {
    const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
    const req = request(
      {
        host: "127.0.0.1",
        port: s.port,
        path,
        method: init.method ?? (body ? "POST" : "GET"),
        headers: {
          host: host.includes(":") ? host : `${host}:${s.port}`,
          ...(body
            ? { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) }
            : {}),
          ...(init.cookie ? { cookie: init.cookie } : {}),
          ...init.headers,
        },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          data += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}
export const demo = (path: string, init?: Parameters<typeof hit>[2]) => hit("demo.localhost", path, init);
export const app = (path: string, init?: Parameters<typeof hit>[2]) => hit("localhost", path, init);

export const XSS = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(2)">',
  '<a href="javascript:alert(3)">click</a>',
  "<svg><script>alert(4)</script></svg>",
  '<iframe src="https://evil.example"></iframe>',
  '<p style="background:url(javascript:alert(5))">styled</p>',
].join("");

export function expectNoXss(html: string) {
  // Inline scripts other than ours and JSON-LD must not appear.
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  for (const tag of scripts) expect(tag === "<script>" || tag.includes('type="application/ld+json"')).toBe(true);
  expect(html).not.toMatch(/alert\(\d\)<\/script>/);
  expect(html).not.toMatch(/onerror=/i);
  expect(html).not.toMatch(/href="javascript:/i);
  expect(html).not.toMatch(/<iframe[^>]*evil/i);
  expect(html).not.toMatch(/<svg><script/i);
  expect(html).not.toMatch(/style="background/i);
}

export async function makeAuthor(sub: string, opts: { email?: string; xss?: boolean } = {}) {
  const db = s.database.db;
  const id = crypto.randomUUID();
  const email = opts.email ?? `${sub}@example.com`;
  await db.insert(user).values({ id, name: `Author ${sub}`, email, emailVerified: true });
  await db.insert(profiles).values({
    id,
    name: `Author ${sub}`,
    email,
    bio: opts.xss ? `<p>Bio</p>${XSS}` : "<p>Plain bio</p>",
  });
  await db.insert(websites).values({
    userId: id,
    subdomain: sub,
    websiteName: `Site ${sub}`,
    homePageContent: opts.xss ? `<p>Home</p>${XSS}` : null,
    // These sites show every section even while empty, as an author may choose (ADR 052);
    // placeholders.test.ts covers the new site that hides them.
    showWhenEmpty: ["books", "about", "blog", "newsletter"],
  });
  await db.insert(websiteCustomization).values({ userId: id });
  await db.insert(contactSettings).values({
    userId: id,
    contactEmail: `contact-${sub}@example.com`,
    socialLinks: [
      { platform: "facebook", url: "https://facebook.com/x", enabled: true },
      { platform: "youtube", url: "https://youtube.com/x", enabled: false },
      { platform: "email", url: "mailto:a@b.c", enabled: true },
      { platform: "myspace", url: "https://myspace.com/x", enabled: true },
      { platform: "tiktok", url: "  ", enabled: true },
    ],
  });
  if (opts.xss) {
    await db.insert(legalPages).values({ userId: id, content: `<p>Legal</p>${XSS}` });
    await db
      .insert(blogPosts)
      .values({ userId: id, title: "XSS post", slug: "xss-post", content: `<p>Post</p>${XSS}`, category: "news" });
    await db.insert(books).values({
      userId: id,
      title: "XSS book",
      slug: "xss-book",
      author: "A",
      shortBlurb: `<p>Blurb</p>${XSS}`,
      reviewSnippet: XSS,
    });
  }
  return id;
}

/** The seeded demo's "Tides of Silence". */
export let demoBookId = "";
/** Starts the test file's server (the demo seeded) before its tests and stops it after. */
export function startSiteServer() {
  beforeAll(async () => {
    // A trusted proxy lets a test speak for several reader addresses (X-Forwarded-For).
    s = await startTestServer({ SEED_DEMO: "true", TRUST_PROXY: "true" });
    const [b] = await s.database.db.select({ id: books.id }).from(books).where(eq(books.title, "Tides of Silence"));
    demoBookId = b?.id ?? "";
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });
}

/** Every JSON-LD object of a page, parsed. */
export function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? "null") as Record<string, unknown>,
  );
}
export const meta = (html: string, attr: "name" | "property", key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/[:.]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1];
