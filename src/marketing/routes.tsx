// The marketing site on the app host: server-rendered pages with no framework JavaScript, each
// rendered once per process and answered with an ETag; the contact form files a support ticket.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { getSessionCookie } from "better-auth/cookies";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie, setCookie } from "hono/cookie";
import type { Db } from "../db/client.ts";
import { clientAddress } from "../server/lib/client-address.ts";
import type { Logger } from "../server/lib/logger.ts";
import { dbRateLimiter } from "../server/lib/rate-limiter.ts";
import { receiveMarketingContact, ticketRefusal } from "../server/modules/support/support.service.ts";
import { CURRENCIES, type Currency } from "../shared/enums.ts";
import { marketingContactSchema } from "../shared/schemas/admin.ts";
import { encodedBody, encodedEtag, pickEncoding, utf8Bytes } from "../sites/delivery/page-cache.ts";
import { marketingAssets } from "./assets.ts";
import { cspFor, MARKETING_CSP, type MarketingEnv, type MarketingPage, renderMarketing } from "./document.tsx";
import { galleryFile } from "./gallery.tsx";
import { type ContactFields, contactPage } from "./pages/contact.tsx";
import { faqPage } from "./pages/faq.tsx";
import { featuresPage } from "./pages/features.tsx";
import { landingPage } from "./pages/landing.tsx";
import { cookiesPage, privacyPage, termsPage } from "./pages/legal.tsx";
import { notFoundPage } from "./pages/not-found.tsx";
import { ourStoryPage } from "./pages/our-story.tsx";
import { pricingPage } from "./pages/pricing.tsx";

export type MarketingDeps = {
  appOrigin: string;
  trustProxy: boolean;
  db: Db;
  mailer: { send(m: { to: string; subject: string; text: string }): Promise<void> };
  logger: Logger;
  webDist: string;
};

/** The pages that are the same for everyone (the contact page's empty form included). */
export const STATIC_PAGES: Record<string, () => MarketingPage> = {
  "/": landingPage,
  "/features": featuresPage,
  "/faq": faqPage,
  "/our-story": ourStoryPage,
  "/contact": () => contactPage({ kind: "form" }),
  "/terms": termsPage,
  "/privacy-legal": privacyPage,
  "/cookies": cookiesPage,
};

/** Every address a crawler should know on the app host (the sitemap). */
export const SITEMAP_PATHS = [...Object.keys(STATIC_PAGES), "/pricing", "/demo"];

const HTML = "text/html; charset=UTF-8";

/** The pricing page's currency, for the visit (a session cookie; see the cookies page). */
export const CURRENCY_COOKIE = "pricing_currency";

/** A rendering kept with its compressed copies, made on first demand (as author pages are). */
type Rendered = {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  csp: string;
  encoded?: Partial<Record<"br" | "gzip", Uint8Array<ArrayBuffer>>>;
};

/**
 * Whether the visitor's browser holds a session: its cookie is present (better-auth's optimistic
 * check; the session is not looked up). It picks the header's links, so each page has two
 * renderings and says it varies by Cookie.
 */
export const hasSession = (headers: Headers) => getSessionCookie(headers) !== null;

export function marketingRoutes(deps: MarketingDeps) {
  const r = new Hono();
  const env = (): MarketingEnv => ({ origin: deps.appOrigin, assets: marketingAssets(deps.webDist) });
  // Rendered once per stylesheet (a new build makes a new one).
  const cache = new Map<string, Rendered>();
  /** `variant`: one of several renderings of the same address (the pricing page's currencies). */
  const rendered = (path: string, make: () => MarketingPage, signedIn: boolean, variant = ""): Rendered => {
    const e = env();
    const key = `${e.assets?.stylesheet}|${path}|${signedIn}|${variant}`;
    let hit = cache.get(key);
    if (!hit) {
      const page = make();
      const html = renderMarketing(e, page, path, signedIn);
      hit = {
        body: utf8Bytes(html),
        etag: `"${createHash("sha1").update(html).digest("base64url").slice(0, 22)}"`,
        csp: cspFor(page),
      };
      cache.set(key, hit);
    }
    return hit;
  };
  const headers = { "Content-Type": HTML, "Content-Security-Policy": MARKETING_CSP };
  /** Brotli or gzip when the browser takes it, like author pages (delivery.ts); one ETag per encoding. */
  const answer = (c: Context, page: Rendered, base: Record<string, string>) => {
    const encoding = pickEncoding(c.req.header("accept-encoding"), page);
    const etag = encodedEtag(page.etag, encoding);
    const caching: Record<string, string> = { ...base, ETag: etag, Vary: "Cookie, Accept-Encoding" };
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, caching);
    if (encoding) caching["Content-Encoding"] = encoding;
    return c.body(encoding ? encodedBody(page, encoding) : page.body, 200, caching);
  };

  for (const [path, make] of Object.entries(STATIC_PAGES)) {
    r.get(path, (c) => {
      const page = rendered(path, make, hasSession(c.req.raw.headers));
      return answer(c, page, {
        ...headers,
        "Content-Security-Policy": page.csp,
        "Cache-Control": "public, max-age=0, must-revalidate",
      });
    });
  }
  r.get("/privacy", (c) => c.redirect("/privacy-legal", 301));

  // The gallery's pictures: named by their content, so cached for a year.
  r.get("/gallery/:file", (c) => {
    const file = galleryFile(c.req.param("file"));
    if (!file) return c.notFound();
    return c.body(readFileSync(file), 200, {
      "Content-Type": "image/webp",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  });

  // Pricing in the currency asked for (a link of the selector), remembered for the visit in a
  // session cookie; else the remembered one; else pounds. One rendering per currency.
  const isCurrency = (v: string | undefined): v is Currency => (CURRENCIES as readonly string[]).includes(v ?? "");
  r.get("/pricing", (c) => {
    const asked = c.req.query("currency")?.toUpperCase();
    const remembered = getCookie(c, CURRENCY_COOKIE);
    const currency: Currency = isCurrency(asked) ? asked : isCurrency(remembered) ? remembered : "GBP";
    if (isCurrency(asked) && asked !== remembered) {
      setCookie(c, CURRENCY_COOKIE, asked, { path: "/", sameSite: "Lax", httpOnly: true });
    }
    // One canonical address for every currency: the same page, in other money.
    const signedIn = hasSession(c.req.raw.headers);
    const page = rendered("/pricing", () => pricingPage(currency, signedIn), signedIn, currency);
    return answer(c, page, { ...headers, "Cache-Control": "private, max-age=0, must-revalidate" });
  });

  // Five messages per address per ten minutes: enough for a person, not for a flood.
  const limiter = dbRateLimiter(deps.db, "marketing-contact", 5, 10 * 60_000);
  // One acknowledgement per address per day, whoever sends from wherever (ADR 048).
  const replies = dbRateLimiter(deps.db, "marketing-contact-reply", 1, 24 * 60 * 60_000);
  // A form is a few KB: anything past 64 KB is refused before it is read (ADR 016).
  const formLimit = bodyLimit({
    maxSize: 64 * 1024,
    onError: (c) => c.text("The form is too large (limit 64 KB). Nothing was sent.\n", 413, { Connection: "close" }),
  });
  r.post("/contact", formLimit, async (c) => {
    const render = (page: MarketingPage) =>
      c.body(renderMarketing(env(), page, "/contact", hasSession(c.req.raw.headers)), page.status as 200, headers);
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      return render(contactPage({ kind: "form", error: "The form could not be read. Please try again." }, 400));
    }
    const text = (k: string) => (typeof form[k] === "string" ? (form[k] as string) : "");
    const values: ContactFields = {
      name: text("name"),
      email: text("email"),
      subject: text("subject"),
      message: text("message"),
    };
    // A bot that fills the hidden field is told it worked; nothing is kept or sent.
    if (text("website").trim()) return render(contactPage({ kind: "sent" }));
    const parsed = marketingContactSchema.safeParse(values);
    if (!parsed.success) {
      const errors: Partial<Record<keyof ContactFields, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof ContactFields;
        errors[field] ??= issue.message;
      }
      return render(contactPage({ kind: "form", values, errors, error: "Please correct the fields below." }, 400));
    }
    if (!(await limiter.take(clientAddress(c, deps.trustProxy) ?? "unknown"))) {
      return render(contactPage({ kind: "form", values, error: "Too many messages. Please try again later." }, 429));
    }
    try {
      await receiveMarketingContact({ db: deps.db, mailer: deps.mailer, replies }, parsed.data);
    } catch (err) {
      const refused = ticketRefusal(err);
      if (refused) {
        c.header("Retry-After", String(refused.retryAfterSeconds));
        return render(contactPage({ kind: "form", values, error: refused.message }, 429));
      }
      deps.logger.error({ err }, "marketing contact failed");
      return render(
        contactPage({ kind: "form", values, error: "Your message could not be sent. Please try again." }, 500),
      );
    }
    return render(contactPage({ kind: "sent" }));
  });

  r.get("/robots.txt", (c) =>
    c.text(
      [
        "User-agent: *",
        "Disallow: /api/",
        "Disallow: /dashboard",
        "Disallow: /account",
        "Disallow: /admin",
        "Disallow: /onboarding",
        "Disallow: /author/",
        `Sitemap: ${deps.appOrigin}/sitemap.xml`,
        "",
      ].join("\n"),
      200,
      { "Cache-Control": "public, max-age=3600" },
    ),
  );
  r.get("/sitemap.xml", (c) =>
    c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${SITEMAP_PATHS.map((p) => `<url><loc>${deps.appOrigin}${p}</loc></url>`).join("")}</urlset>\n`,
      200,
      { "Content-Type": "application/xml; charset=UTF-8", "Cache-Control": "public, max-age=3600" },
    ),
  );
  return r;
}

/** The 404 page for any address nothing else answers on the app host. */
export function marketingNotFound(deps: Pick<MarketingDeps, "appOrigin" | "webDist">, path: string, signedIn: boolean) {
  const env = { origin: deps.appOrigin, assets: marketingAssets(deps.webDist) };
  return {
    html: renderMarketing(env, notFoundPage(), path, signedIn),
    headers: { "Content-Type": HTML, "Content-Security-Policy": MARKETING_CSP },
  };
}
