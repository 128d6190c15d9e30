// Public author sites: routing, SEO, forms and headers. app.ts decides which site a request is for
// and calls handleSiteRequest; everything after that lives here.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { z } from "zod";
import type { AppVars } from "../server/http/context.ts";
import { isBot } from "../server/modules/analytics/visit-counter.ts";
import {
  confirmNewsletterSubscriber,
  getVisibleBook,
  listPosts,
  listVisibleBooks,
  loadSiteContext,
  type SiteContext,
  saveContactMessage,
  subscribeToNewsletter,
} from "../server/modules/sites/sites.service.ts";
import { memoByString } from "./memo.ts";
import { type CachedPage, encodedBody, encodedEtag, etagOf, pickEncoding } from "./page-cache.ts";
import {
  AboutPage,
  BlogPage,
  BookPage,
  BooksPage,
  blogTitles,
  CATEGORIES,
  ContactPage,
  HomePage,
  href,
  Layout,
  MessagePage,
  NewsletterPage,
  type PageEnv,
  PrivacyPage,
  publicSocialLinks,
  type SiteMode,
  siteName,
} from "./pages.tsx";
import { renderWebsiteNotFound } from "./render.tsx";
import { cut, plainText } from "./sanitize.ts";
import { isFontFile, themeCss } from "./theme.ts";

export type { SiteMode } from "./pages.tsx";

// The only inline script: cookie banner without a round trip, demo Close as window.close.
const SCRIPT = `(function(){var f=document.getElementById("cc");f&&f.addEventListener("submit",function(e){e.preventDefault();var b=e.submitter;if(!b||!b.dataset.close)document.cookie="cookie_consent="+(b?b.value:"declined")+";path=/;max-age=31536000;samesite=lax";f.remove()});var d=document.getElementById("demo-close");d&&d.addEventListener("click",function(e){if(window.opener){e.preventDefault();window.close()}})})()`;
const SCRIPT_HASH = `'sha256-${createHash("sha256").update(SCRIPT).digest("base64")}'`;

function csp(styleHash: string): string {
  return [
    "default-src 'none'",
    `script-src ${SCRIPT_HASH}`,
    `style-src ${styleHash}`,
    "img-src 'self' https: data:",
    "font-src 'self'",
    // No script of ours fetches anything; crawlers' tools (Lighthouse) read robots.txt this way.
    "connect-src 'self'",
    "frame-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'self'",
  ].join("; ");
}

export type SiteLookup = { subdomain: string } | { customDomain: string };
export type SiteRequest = { lookup: SiteLookup; basePath: string; mode: SiteMode };

type Head = { title: string; description?: string; image?: string | null; jsonLd?: unknown[]; type?: string };
type Page = { status: number; head: Head; body: ReactElement };

/** A rendered answer, before the caching headers that depend on the request are added. */
type Out = {
  status: number;
  body: string | null;
  headers: Record<string, string>;
  /** Depends on more than the site and the address (form input, a token): never cached or shared. */
  personal?: boolean;
  /** An HTML page a reader looks at (not a feed, the sitemap or the newsletter frame). */
  view?: boolean;
};

const HTML = "text/html; charset=UTF-8";

const safeCssUrl = (u: string) => (/^(https:\/\/|\/uploads\/)[^"'()\\\s<>]+$/.test(u) ? u : null);

/** The scheme of APP_ORIGIN ("http:" or "https:"), which tenant hosts share. */
const protocolOf = memoByString((origin) => new URL(origin).protocol);

export function siteOrigin(c: Context<AppVars>, ctx: SiteContext): string {
  const env = c.get("deps").env;
  const proto = protocolOf(env.appOrigin);
  if (ctx.website.customDomain && ctx.customDomainVerified) return `${proto}//${ctx.website.customDomain}`;
  return `${proto}//${ctx.website.subdomain}.${env.sitesDomain}`;
}

/** The CSP source for a stylesheet; the same few per site, so each is hashed once. */
const styleHashOf = memoByString((css) => `'sha256-${createHash("sha256").update(css).digest("base64")}'`);

function renderHtml(c: Context<AppVars>, env: PageEnv, page: Page, path: string): Out {
  const { ctx } = env;
  const origin = siteOrigin(c, ctx);
  const canonical = `${origin}${path === "/" ? "/" : path}`;
  let css = themeCss(ctx);
  const hero = ctx.website.heroImageUrl ? safeCssUrl(ctx.website.heroImageUrl) : null;
  if (hero) css += `.hero{background-image:url("${hero}")}`;
  const styleHash = styleHashOf(css);
  const abs = (u: string | null | undefined) => (u ? (u.startsWith("/") ? `${origin}${u}` : u) : undefined);
  const title = page.head.title;
  const description = page.head.description ? cut(page.head.description, 160) : undefined;
  const image = abs(page.head.image);
  const doc = (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>{title}</title>
        {description && <meta name="description" content={description} />}
        <link rel="canonical" href={canonical} />
        {/* The demo is a public sample whose canonical URL (its tenant host) consolidates it in
            search; only the owner's private preview is kept out. */}
        {env.mode === "preview" && <meta name="robots" content="noindex" />}
        <meta property="og:type" content={page.head.type ?? "website"} />
        <meta property="og:title" content={title} />
        {description && <meta property="og:description" content={description} />}
        <meta property="og:url" content={canonical} />
        <meta property="og:site_name" content={siteName(ctx)} />
        {image && <meta property="og:image" content={image} />}
        <meta name="twitter:card" content={image ? "summary_large_image" : "summary"} />
        <meta name="twitter:title" content={title} />
        {description && <meta name="twitter:description" content={description} />}
        {image && <meta name="twitter:image" content={image} />}
        {ctx.website.newsEnabled && (
          <link
            rel="alternate"
            type="application/rss+xml"
            title={`${siteName(ctx)} blog`}
            href={href(env, "/rss.xml")}
          />
        )}
        <link
          rel="preload"
          href={css.match(/url\((\/_fonts\/[^)]+)\)/)?.[1]}
          as="font"
          type="font/woff2"
          crossOrigin=""
        />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: built from validated colours only */}
        <style dangerouslySetInnerHTML={{ __html: css }} />
        {(page.head.jsonLd ?? []).map((j, i) => (
          <script
            // biome-ignore lint/suspicious/noArrayIndexKey: static list
            key={i}
            type="application/ld+json"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with < escaped
            dangerouslySetInnerHTML={{ __html: JSON.stringify(j).replace(/</g, "\\u003c") }}
          />
        ))}
      </head>
      <body>
        <Layout env={env}>{page.body}</Layout>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant, allowed by its hash */}
        <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />
      </body>
    </html>
  );
  return {
    status: page.status,
    body: `<!doctype html>${renderToStaticMarkup(doc)}`,
    headers: {
      "Content-Type": HTML,
      "Content-Security-Policy": csp(styleHash),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    },
    view: true,
  };
}

/**
 * The floating Edit Book link, for the book's owner only and only in the app host's preview:
 * the dashboard's session cookie belongs to the app host and never reaches tenant hosts, and
 * tenant pages are shared through caches, so they must not differ per reader.
 */
async function editHrefFor(
  c: Context<AppVars>,
  req: SiteRequest,
  ctx: SiteContext,
  bookId: string,
): Promise<string | undefined> {
  if (req.mode !== "preview" || !c.req.header("cookie")) return undefined;
  try {
    const session = await c.get("deps").auth.api.getSession({ headers: c.req.raw.headers });
    return session?.user.id === ctx.website.userId ? `/edit-book/${encodeURIComponent(bookId)}` : undefined;
  } catch {
    return undefined;
  }
}

function personLd(ctx: SiteContext, origin: string) {
  const p = ctx.profile;
  const sameAs = publicSocialLinks(ctx).map((l) => l.url);
  return {
    "@context": "https://schema.org",
    "@type": "Person",
    name: p.name,
    url: `${origin}/`,
    description: plainText(p.bio) || undefined,
    image: p.authorPhotoUrl
      ? p.authorPhotoUrl.startsWith("/")
        ? origin + p.authorPhotoUrl
        : p.authorPhotoUrl
      : undefined,
    sameAs: sameAs.length ? sameAs : undefined,
  };
}

const contactSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(200),
  email: z.email("Please enter a valid email address").max(320),
  subject: z.string().trim().min(1, "Subject is required").max(300),
  message: z.string().trim().min(1, "Message is required").max(5000),
  website: z.string().optional(),
});
const emailSchema = z.object({ email: z.email("Please enter a valid email address").max(320) });

const MAX_FORM_BYTES = 64 * 1024;

async function formBody(c: Context<AppVars>): Promise<Record<string, string>> {
  if (Number(c.req.header("content-length") ?? 0) > MAX_FORM_BYTES) return {};
  try {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === "string")) as Record<string, string>;
  } catch {
    return {};
  }
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

function sitePathOf(c: Context<AppVars>, basePath: string): string {
  let p = c.req.path.slice(basePath.length) || "/";
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

// ---- Caching, validators and visit counting (ADR 007) ----

/** Statuses kept in the page cache. 404s are not: any path can be asked for, and they are cheap. */
const CACHED_STATUSES = new Set([200, 301, 503]);

/**
 * Browsers revalidate every time (max-age=0: an author's change and a reader's cookie choice show
 * at once, a 304 costs a few bytes); a CDN may keep a page for a minute and serve it stale while
 * it refetches. CDN-Cache-Control (RFC 9213) carries the CDN's part so that browsers never serve
 * a stale page; s-maxage is the fallback for shared caches that do not read it.
 */
const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=60";
const CDN_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=300";

function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** The reader's address: the socket's, or behind a trusted proxy the last hop it appended. */
function clientAddress(c: Context<AppVars>, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const hop = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (hop) return hop;
  }
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** Sends a page that is the same for every reader of this URL: validators, CDN headers, a visit. */
function deliver(c: Context<AppVars>, req: SiteRequest, page: CachedPage): Response {
  const method = c.req.method;
  const encoding = page.body.length ? pickEncoding(c.req.header("accept-encoding"), page) : null;
  const etag = encodedEtag(page.etag, encoding);
  const headers: Record<string, string> = {
    ETag: etag,
    "Cache-Control": page.status === 503 ? "no-store" : SHARED_CACHE_CONTROL,
    // The only cookie a site reads is the reader's cookie-banner choice.
    Vary: "Cookie, Accept-Encoding",
    "Surrogate-Key": `site-${page.websiteId}`,
  };
  if (encoding) headers["Content-Encoding"] = encoding;
  if (page.status !== 503) headers["CDN-Cache-Control"] = CDN_CACHE_CONTROL;
  const inm = page.status === 200 ? c.req.header("if-none-match") : undefined;
  const notModified = inm !== undefined && etagMatches(inm, etag);
  if (page.countsAsView && page.status === 200 && method === "GET" && req.mode !== "preview") {
    const purpose = c.req.header("sec-purpose") ?? c.req.header("purpose") ?? "";
    const ua = c.req.header("user-agent");
    if (!purpose.includes("prefetch") && !isBot(ua)) {
      const deps = c.get("deps");
      deps.sites.visits.record(page.websiteId, clientAddress(c, deps.env.trustProxy), ua);
    }
  }
  if (notModified) return new Response(null, { status: 304, headers });
  const body = encoding ? encodedBody(page, encoding) : page.body;
  return new Response(method === "HEAD" ? null : body, {
    status: page.status,
    headers: { ...page.headers, ...headers },
  });
}

function privateResponse(out: Out): Response {
  return new Response(out.body, { status: out.status, headers: { ...out.headers, "Cache-Control": "no-store" } });
}

function cacheKey(c: Context<AppVars>, req: SiteRequest, path: string, consent: boolean, year: number): string {
  const site =
    "subdomain" in req.lookup
      ? `s:${req.lookup.subdomain.toLowerCase()}`
      : `d:${req.lookup.customDomain.toLowerCase()}`;
  // Only the blog reads the query string; ignoring it elsewhere keeps junk queries off the cache.
  const query = path === "/blog" ? (c.req.query("category") ?? "") : "";
  return `${req.mode}|${site}|${req.basePath}|${path}|${query}|${consent ? 1 : 0}|${year}`;
}

/**
 * Answers any request for a public author site. A page that is the same for every reader is
 * served from the per-site cache when there (no database at all), else rendered with at most two
 * database round trips (the site context, then one page query) and kept.
 */
export async function handleSiteRequest(c: Context<AppVars>, req: SiteRequest): Promise<Response> {
  const deps = c.get("deps");
  const cache = deps.sites.cache;
  const method = c.req.method;
  const path = sitePathOf(c, req.basePath);
  const consent = /(?:^|;\s*)cookie_consent=(accepted|declined)/.test(c.req.header("cookie") ?? "");
  const year = new Date().getUTCFullYear();
  // Previews are the owner's view of their own site: never shared, never cached.
  const shared = (method === "GET" || method === "HEAD") && req.mode !== "preview";
  const key = shared ? cacheKey(c, req, path, consent, year) : "";
  if (shared && cache) {
    const hit = cache.get(key);
    if (hit) return deliver(c, req, hit);
  }
  const ctx = await loadSiteContext(deps.database.db, req.lookup);
  if (!ctx) return c.html(renderWebsiteNotFound(), 404, { "Cache-Control": "no-store" });
  const out = await renderSite(c, req, ctx, { path, consent, year });
  if (!shared || out.personal) return privateResponse(out);
  const body = Buffer.from(out.body ?? "", "utf8");
  const page: CachedPage = {
    status: out.status,
    body,
    etag: etagOf(body),
    headers: out.headers,
    websiteId: ctx.website.id,
    countsAsView: out.view === true,
  };
  if (cache && CACHED_STATUSES.has(page.status)) cache.set(ctx.website.userId, key, page);
  return deliver(c, req, page);
}

function ConfirmSubscription(props: { env: PageEnv; token: string }) {
  const disabled = props.env.mode === "demo";
  return (
    <div className="wrap">
      <div className="empty">
        <h1>Confirm your subscription</h1>
        <p>Press the button to confirm that you want to receive this newsletter.</p>
        <form method="post" action={href(props.env, "/newsletter/confirm")}>
          <input type="hidden" name="token" value={props.token} />
          <button className="btn" type="submit" disabled={disabled}>
            Confirm subscription
          </button>
        </form>
      </div>
    </div>
  );
}

const INVALID_LINK = "This confirmation link is not valid. Please sign up again to get a new one.";

/** The answer for one request to a site that exists. */
async function renderSite(
  c: Context<AppVars>,
  req: SiteRequest,
  ctx: SiteContext,
  r: { path: string; consent: boolean; year: number },
): Promise<Out> {
  const deps = c.get("deps");
  const db = deps.database.db;
  const { path } = r;
  const method = c.req.method;
  const w = ctx.website;
  const env: PageEnv = {
    ctx,
    base: req.basePath,
    mode: req.mode,
    path,
    showCookieBanner: !r.consent,
    year: r.year,
  };
  const html = (page: Page) => renderHtml(c, env, page, path);
  const name = siteName(ctx);
  const notFound = () =>
    html({
      status: 404,
      head: { title: `Page not found | ${name}` },
      body: (
        <MessagePage env={env} title="Page not found" text="Sorry, the page you were looking for does not exist." />
      ),
    });
  const plain = (status: number, body: string | null, headers: Record<string, string> = {}): Out => ({
    status,
    body,
    headers,
  });

  // A verified custom domain is the site's one address: the subdomain sends readers and
  // crawlers there for good. Only the page path travels (the site reads no other query).
  if (
    req.mode === "tenant" &&
    "subdomain" in req.lookup &&
    ctx.website.customDomain &&
    ctx.customDomainVerified &&
    (method === "GET" || method === "HEAD")
  ) {
    const query = new URL(c.req.url).search;
    return {
      ...plain(301, null, { Location: `${siteOrigin(c, ctx)}${path}${query}` }),
      personal: query !== "",
    };
  }

  if (ctx.subscriptionStatus === "expired") {
    return {
      ...html({
        status: 503,
        head: { title: `${name} is temporarily unavailable` },
        body: (
          <MessagePage
            title="Temporarily unavailable"
            text="This website is temporarily unavailable. Please check back soon."
          />
        ),
      }),
      view: false,
    };
  }

  if (method === "POST") {
    const personal = (out: Out): Out => ({ ...out, personal: true });
    const ip = clientAddress(c, deps.env.trustProxy) ?? "unknown";
    const limits = deps.sites.limits;
    if (path === "/cookie-consent") {
      const b = await formBody(c);
      const v = b.choice === "accepted" ? "accepted" : "declined";
      // Back to the page the reader was on, if it is a page of this site (never elsewhere).
      const home = req.basePath || "/";
      const asked = b.back ?? "";
      const back =
        /^\/(?![/\\])[^\s\\]*$/.test(asked) && (asked === home || asked.startsWith(`${req.basePath}/`)) ? asked : home;
      return personal(
        plain(303, null, {
          Location: back,
          "Set-Cookie": `cookie_consent=${v}; Path=/; Max-Age=31536000; SameSite=Lax`,
        }),
      );
    }
    if (req.mode === "demo" && (path === "/contact" || path === "/newsletter" || path === "/newsletter/confirm")) {
      const error = "The demo site is read-only.";
      const body =
        path === "/contact" ? <ContactPage env={env} error={error} /> : <NewsletterPage env={env} error={error} />;
      return personal(html({ status: 403, head: { title: `${name}` }, body }));
    }
    if (path === "/contact" && w.contactEnabled && (ctx.contact?.enableContactForm ?? true)) {
      const raw = await formBody(c);
      const parsed = contactSchema.safeParse(raw);
      const title = `Contact | ${name}`;
      const page = (status: number, body: ReactElement) => personal(html({ status, head: { title }, body }));
      if (!parsed.success) return page(400, <ContactPage env={env} error={parsed.error.issues[0]?.message} />);
      const antispam = ctx.contact?.antispamEnabled ?? true;
      // A filled honeypot is a bot: answer as if sent, keep nothing.
      if (antispam && parsed.data.website?.trim()) return page(200, <ContactPage env={env} done />);
      if (
        antispam &&
        (!limits.contact.take(`${w.userId}|ip|${ip}`) ||
          !limits.contact.take(`${w.userId}|from|${parsed.data.email.toLowerCase()}`))
      ) {
        return page(429, <ContactPage env={env} error="Too many messages. Please try again later." />);
      }
      const m = {
        name: parsed.data.name,
        email: parsed.data.email,
        subject: parsed.data.subject,
        message: parsed.data.message,
      };
      await saveContactMessage(db, w.userId, m);
      const to = ctx.contact?.contactEmail?.trim() || ctx.profile.email;
      try {
        await deps.mailer.send({
          to,
          subject: `New message from your website: ${m.subject}`,
          text: `From: ${m.name} <${m.email}>\nSubject: ${m.subject}\n\n${m.message}\n`,
        });
      } catch (err) {
        deps.logger.warn({ err, reqId: c.get("requestId") }, "contact mail failed");
      }
      return page(200, <ContactPage env={env} done />);
    }
    if (path === "/newsletter" && w.newsletterEnabled) {
      const parsed = emailSchema.safeParse(await formBody(c));
      const title = `Newsletter | ${name}`;
      const page = (status: number, body: ReactElement) => personal(html({ status, head: { title }, body }));
      if (!parsed.success) return page(400, <NewsletterPage env={env} error={parsed.error.issues[0]?.message} />);
      if (!limits.signUp.take(`${w.userId}|${ip}`)) {
        return page(429, <NewsletterPage env={env} error="Too many sign-ups. Please try again later." />);
      }
      const email = parsed.data.email.toLowerCase();
      const pending = await subscribeToNewsletter(db, w.userId, email);
      // Already confirmed, or mailed often enough: the same answer, no mail.
      if (pending && limits.confirmMail.take(`${w.userId}|${email}`)) {
        const link = `${siteOrigin(c, ctx)}/newsletter/confirm?token=${encodeURIComponent(pending.confirmToken)}`;
        try {
          await deps.mailer.send({
            to: email,
            subject: `Please confirm your subscription to ${name}`,
            text:
              `Hello,\n\nSomeone (we hope you) asked to receive the newsletter of ${name}.\n` +
              `To confirm, open this link and press "Confirm subscription":\n\n${link}\n\n` +
              "If it was not you, ignore this mail: you will not be subscribed.\n",
          });
        } catch (err) {
          deps.logger.warn({ err, reqId: c.get("requestId") }, "newsletter confirmation mail failed");
        }
      }
      return page(200, <NewsletterPage env={env} done />);
    }
    if (path === "/newsletter/confirm" && w.newsletterEnabled) {
      const token = (await formBody(c)).token ?? "";
      const title = `Newsletter | ${name}`;
      if (!(await confirmNewsletterSubscriber(db, w.userId, token))) {
        return personal(
          html({
            status: 404,
            head: { title },
            body: <MessagePage env={env} title="Link not valid" text={INVALID_LINK} />,
          }),
        );
      }
      return personal(
        html({
          status: 200,
          head: { title },
          body: (
            <MessagePage
              env={env}
              title="Subscription confirmed"
              text="Thank you for subscribing! You'll hear from me soon."
            />
          ),
        }),
      );
    }
    return plain(405, "Method not allowed", { "Content-Type": "text/plain; charset=UTF-8", Allow: "GET, HEAD" });
  }
  if (method !== "GET" && method !== "HEAD")
    return plain(405, "Method not allowed", { "Content-Type": "text/plain; charset=UTF-8", Allow: "GET, HEAD, POST" });

  const origin = siteOrigin(c, ctx);
  switch (true) {
    case path === "/": {
      return html({
        status: 200,
        head: {
          title: ctx.website.websiteTitle?.trim() || name,
          description: w.tagline || ctx.profile.tagline || plainText(ctx.profile.bio),
          image: w.heroImageUrl ? safeCssUrl(w.heroImageUrl) : null,
          jsonLd: [personLd(ctx, origin)],
        },
        body: <HomePage env={env} />,
      });
    }
    case path === "/news":
      return plain(301, null, { Location: href(env, "/blog") });
    case path === "/books" && w.booksEnabled: {
      const books = await listVisibleBooks(db, w.userId, ctx.bookLimit);
      return html({
        status: 200,
        head: { title: `Books | ${name}`, description: `Explore ${books.length} books by ${ctx.profile.name}.` },
        body: <BooksPage env={env} books={books} />,
      });
    }
    case path.startsWith("/book/") && w.booksEnabled: {
      const id = path.slice("/book/".length);
      const detail = await getVisibleBook(db, w.userId, id, ctx.bookLimit);
      if (!detail) {
        const title = req.mode === "demo" ? "Book not found" : "Book Not Found";
        return html({
          status: 404,
          head: { title: `${title} | ${name}` },
          body: (
            <MessagePage
              env={env}
              title={title}
              text="The book you are looking for does not exist or is not available."
            />
          ),
        });
      }
      const b = detail.book;
      const formats = [
        b.formatEbook && "https://schema.org/EBook",
        b.formatPaperback && "https://schema.org/Paperback",
        b.formatHardback && "https://schema.org/Hardcover",
        b.formatAudiobook && "https://schema.org/AudiobookFormat",
      ].filter(Boolean);
      const cover = b.coverImageVariants?.at(-1)?.url ?? b.coverImageUrl;
      const bookLd = {
        "@context": "https://schema.org",
        "@type": "Book",
        name: b.title,
        alternativeHeadline: b.subtitle ?? undefined,
        author: { "@type": "Person", name: b.author },
        isbn: b.isbn ?? undefined,
        bookFormat: formats.length === 1 ? formats[0] : formats.length ? formats : undefined,
        datePublished: b.releaseDate ?? undefined,
        image: cover ? (cover.startsWith("/") ? origin + cover : cover) : undefined,
        description: plainText(b.shortBlurb) || undefined,
        genre: detail.genres?.length ? detail.genres : undefined,
        url: `${origin}/book/${b.id}`,
        isPartOf: b.seriesName
          ? { "@type": "BookSeries", name: b.seriesName, position: b.orderInSeries ?? undefined }
          : undefined,
        offers:
          b.primaryPriceMinor !== null
            ? {
                "@type": "Offer",
                price: (b.primaryPriceMinor / 100).toFixed(2),
                priceCurrency: b.primaryCurrency,
                availability: "https://schema.org/InStock",
                url: b.amazonUrl ?? undefined,
              }
            : undefined,
      };
      return html({
        status: 200,
        head: {
          title: `${b.title} | ${name}`,
          description: plainText(b.shortBlurb) || `${b.title} by ${b.author}`,
          image: cover,
          type: "book",
          jsonLd: [bookLd],
        },
        body: <BookPage env={env} detail={detail} editHref={await editHrefFor(c, req, ctx, b.id)} />,
      });
    }
    case path === "/about" && w.aboutEnabled:
      return html({
        status: 200,
        head: {
          title: `About | ${name}`,
          description: plainText(ctx.profile.bio),
          image: ctx.profile.authorPhotoUrl,
          type: "profile",
          jsonLd: [personLd(ctx, origin)],
        },
        body: <AboutPage env={env} />,
      });
    case path === "/blog" && w.newsEnabled: {
      const raw = c.req.query("category") ?? "";
      const category = CATEGORIES.some((x) => x.key === raw) ? raw : "";
      const posts = await listPosts(db, w.userId);
      const t = blogTitles(ctx);
      const shown = category ? posts.filter((p) => p.category === category) : posts;
      return html({
        status: 200,
        head: {
          title: `${t.title} | ${name}`,
          description: t.description,
          jsonLd: shown.slice(0, 20).map((p) => ({
            "@context": "https://schema.org",
            "@type": "BlogPosting",
            headline: p.title,
            description: cut(plainText(p.content), 160) || undefined,
            datePublished: p.createdAt.toISOString(),
            dateModified: p.updatedAt.toISOString(),
            author: { "@type": "Person", name: ctx.profile.name },
            url: `${origin}/blog#post-${p.id}`,
            articleSection: p.category,
          })),
        },
        body: <BlogPage env={env} posts={posts} category={category} />,
      });
    }
    case path === "/newsletter" && w.newsletterEnabled:
      return html({
        status: 200,
        head: { title: `Newsletter | ${name}`, description: `Subscribe to ${ctx.profile.name}'s newsletter.` },
        body: <NewsletterPage env={env} />,
      });
    case path === "/newsletter/confirm" && w.newsletterEnabled: {
      // The mailed link only shows a button: mail scanners that follow links confirm nothing.
      const token = c.req.query("token") ?? "";
      const title = `Newsletter | ${name}`;
      if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) {
        return {
          ...html({
            status: 404,
            head: { title },
            body: <MessagePage env={env} title="Link not valid" text={INVALID_LINK} />,
          }),
          personal: true,
        };
      }
      return {
        ...html({ status: 200, head: { title }, body: <ConfirmSubscription env={env} token={token} /> }),
        personal: true,
        view: false,
      };
    }
    case path === "/newsletter/embed" && w.newsletterEnabled: {
      const code = ctx.customization?.newsletterEmbedCode?.trim();
      if (!code) return notFound();
      // The provider's code runs only inside a sandboxed, opaque-origin frame: it cannot reach the site.
      return plain(200, `<!doctype html><html><head><meta charset="utf-8"></head><body>${code}</body></html>`, {
        "Content-Type": HTML,
        "Content-Security-Policy": "sandbox allow-scripts allow-forms allow-popups; frame-ancestors 'self'",
      });
    }
    case path === "/contact" && w.contactEnabled:
      return html({
        status: 200,
        head: { title: `Contact | ${name}`, description: `Get in touch with ${ctx.profile.name}.` },
        body: <ContactPage env={env} />,
      });
    case path === "/privacy":
      return html({ status: 200, head: { title: `Privacy & Legal | ${name}` }, body: <PrivacyPage env={env} /> });
    case path === "/robots.txt": {
      const body =
        req.mode === "tenant"
          ? `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`
          : "User-agent: *\nDisallow: /\n";
      return plain(200, body, { "Content-Type": "text/plain; charset=UTF-8" });
    }
    case path === "/sitemap.xml": {
      const pages = [
        "/",
        ...["/books", "/about", "/blog", "/newsletter", "/contact"].filter((p) => {
          const on = {
            "/books": w.booksEnabled,
            "/about": w.aboutEnabled,
            "/blog": w.newsEnabled,
            "/newsletter": w.newsletterEnabled,
            "/contact": w.contactEnabled,
          };
          return on[p as keyof typeof on];
        }),
        "/privacy",
      ];
      const urls = pages.map((p) => `<url><loc>${xmlEscape(origin + p)}</loc></url>`);
      if (w.booksEnabled) {
        for (const b of await listVisibleBooks(db, w.userId, ctx.bookLimit)) {
          urls.push(
            `<url><loc>${xmlEscape(`${origin}/book/${b.id}`)}</loc><lastmod>${b.updatedAt.toISOString().slice(0, 10)}</lastmod></url>`,
          );
        }
      }
      return plain(
        200,
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`,
        { "Content-Type": "application/xml; charset=UTF-8" },
      );
    }
    case path === "/rss.xml" && w.newsEnabled: {
      const posts = await listPosts(db, w.userId);
      const items = posts
        .slice(0, 50)
        .map(
          (p) =>
            `<item><title>${xmlEscape(p.title)}</title><link>${xmlEscape(`${origin}/blog#post-${p.id}`)}</link><guid isPermaLink="false">${p.id}</guid><pubDate>${p.createdAt.toUTCString()}</pubDate><category>${xmlEscape(p.category)}</category><description>${xmlEscape(cut(plainText(p.content), 300))}</description></item>`,
        )
        .join("");
      const t = blogTitles(ctx);
      return plain(
        200,
        `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>${xmlEscape(`${t.title} | ${name}`)}</title><link>${xmlEscape(`${origin}/blog`)}</link><description>${xmlEscape(t.description)}</description><language>en-gb</language>${items}</channel></rss>\n`,
        { "Content-Type": "application/rss+xml; charset=UTF-8" },
      );
    }
    default:
      return notFound();
  }
}

const FONTS_DIR = join(process.cwd(), "node_modules", "@fontsource");
const fontCache = new Map<string, ArrayBuffer>();

/** /_fonts/{family}-{weight}.woff2, self-hosted from @fontsource (latin subset only). */
export async function serveFont(c: Context<AppVars>): Promise<Response> {
  const m = /^\/_fonts\/([a-z-]+)-(\d{3})\.woff2$/.exec(c.req.path);
  if (!m?.[1] || !m[2] || !isFontFile(m[1], m[2])) return c.text("Not found", 404);
  const key = `${m[1]}-${m[2]}`;
  let data = fontCache.get(key);
  if (!data) {
    try {
      const buf = await readFile(join(FONTS_DIR, m[1], "files", `${m[1]}-latin-${m[2]}-normal.woff2`));
      data = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
    } catch {
      return c.text("Not found", 404);
    }
    fontCache.set(key, data);
  }
  return new Response(data, {
    headers: {
      "Content-Type": "font/woff2",
      "Cache-Control": "public, max-age=31536000, immutable",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
