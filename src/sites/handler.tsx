// Public author sites: routing and dispatch. app.ts decides which site a request is for and calls
// handleSiteRequest; from here each path goes to its page, feed or form (forms.tsx), the document
// around it (document.tsx) and the cache and headers that deliver it (delivery/).
import type { Context } from "hono";
import type { Db } from "../db/client.ts";
import { clientAddress } from "../server/lib/client-address.ts";
import { isBot } from "../server/modules/analytics/visit-counter.ts";
import { daysUntil, isAlertToken, nextDayStarts } from "../server/modules/books/release-alerts.service.ts";
import { isConfirmToken } from "../server/modules/newsletter/newsletter.service.ts";
import {
  findPost,
  findSeries,
  getVisibleBook,
  listPosts,
  listVisibleBooks,
  loadSiteContext,
  type SiteContext,
  type SiteContexts,
  sectionShown,
  seriesBooks,
  sitemapEntries,
} from "../server/modules/sites/sites.service.ts";
import { recordStoreClick } from "../server/modules/stats/stats.service.ts";
import { bookPath } from "../shared/book-path.ts";
import { DEMO_SUBDOMAIN } from "../shared/reserved-subdomains.ts";
import type { CountryGroup } from "../shared/storefronts.ts";
import { buyBoxFor, statsKey, storesOf } from "./buy-box.ts";
import {
  CACHED_STATUSES,
  cachedFor,
  cacheKey,
  countryVary,
  deliver,
  differsByCountry,
  hasConsentChoice,
  keyToStore,
  privateResponse,
  readerGroup,
} from "./delivery/delivery.ts";
import { type CachedPage, etagOf, utf8Bytes } from "./delivery/page-cache.ts";
import { embedDocument, HTML, type Out, type Page, renderHtml, safeCssUrl } from "./document.tsx";
import { robotsTxt, rssXml, sitemapXml } from "./feeds.ts";
import { ALERT_LINK_INVALID, answerForm } from "./forms.tsx";
import { AboutPage } from "./pages/about-page.tsx";
import { BlogPage, blogTitles } from "./pages/blog-page.tsx";
import { BookPage, bookCrumbs } from "./pages/book-page.tsx";
import { BooksPage } from "./pages/books-page.tsx";
import { ContactPage } from "./pages/contact-page.tsx";
import { HomePage } from "./pages/home-page.tsx";
import { href, type PageEnv, privacyShown, siteName } from "./pages/layout.tsx";
import { MessagePage } from "./pages/message-page.tsx";
import { ConfirmSubscription, INVALID_LINK, NewsletterPage } from "./pages/newsletter-page.tsx";
import { isPreorder } from "./pages/parts.tsx";
import { firstImageOf, PostPage } from "./pages/post-page.tsx";
import { PrivacyPage } from "./pages/privacy-page.tsx";
import { SeriesPage, seriesCrumbs } from "./pages/series-page.tsx";
import { renderAuthorNotFound, renderComingSoon, renderWebsiteNotFound } from "./render.tsx";
import { cut, plainText } from "./sanitize.ts";
import { blogCategory, protocolOf, type SiteRequest, type SiteVars, siteOrigin, sitePathOf } from "./site-request.ts";
import { blogPostingLd, bookCover, bookLd, bookSeriesLd, breadcrumbLd, personLd } from "./structured-data.ts";

export { serveFont } from "./fonts.ts";

/** A store link on a book page: /book/{book address}/buy/{link id} (any address of the book). */
const BUY_PATH = /^\/book\/([^/]+)\/buy\/([^/]+)$/;

export type { SiteLookup, SiteRequest } from "./site-request.ts";

/** A page listing a pre-order says "Out on …" until its day: kept only until midnight. */
function untilReleased(books: readonly { releaseDate: string | null }[], now: Date, page: Out): Out {
  return books.some((b) => isPreorder(b.releaseDate, now)) ? { ...page, expiresAt: nextDayStarts(now) } : page;
}

/**
 * Answers any request for a public author site. A page that is the same for every reader is
 * served from the per-site cache when there (no database at all), else rendered with at most two
 * database round trips (the site context, unless read lately, then one page query) and kept.
 */
export async function handleSiteRequest<E extends SiteVars>(
  appContext: Context<E>,
  req: SiteRequest,
): Promise<Response> {
  // The renderer only reads the context, never sets it: the app's richer context serves as is.
  const c = appContext as unknown as Context<SiteVars>;
  const deps = c.get("deps");
  const cache = deps.sites.cache;
  const method = c.req.method;
  const path = sitePathOf(c, req.basePath);
  const consent = hasConsentChoice(c.req.header("cookie"));
  const year = new Date().getUTCFullYear();
  const group = differsByCountry(path) ? readerGroup(deps.env.countryHeader, (name) => c.req.header(name)) : "";
  // Previews are the owner's view of their own site: never shared, never cached.
  const shared = (method === "GET" || method === "HEAD") && req.mode !== "preview";
  const keyOf = (g: CountryGroup) => cacheKey(c, req, path, consent, year, g);
  if (shared && cache) {
    const hit = cachedFor(cache, keyOf, group);
    if (hit) return deliver(c, req, hit);
  }
  // The owner's preview reads the site afresh: it must show a save the moment it returns, even
  // from a process whose notice of it is still on the way.
  const contexts = req.mode === "preview" ? null : deps.sites.contexts;
  const ctx = await loadSiteContext(deps.database.db, req.lookup, contexts);
  if (!ctx) {
    // www.janeauthor.com and janeauthor.com both reach us; the one the author chose is the site.
    const other =
      "customDomain" in req.lookup ? await otherFormOf(deps.database.db, contexts, req.lookup.customDomain) : null;
    if (other && (method === "GET" || method === "HEAD")) {
      const url = new URL(c.req.url);
      return c.body(null, 301, {
        Location: `${protocolOf(deps.env.appOrigin)}//${other}${url.pathname}${url.search}`,
        "Cache-Control": "public, max-age=3600",
      });
    }
    // A subdomain names an author; a domain pointing at us names a site someone has yet to set up.
    const page = "subdomain" in req.lookup ? renderAuthorNotFound() : renderWebsiteNotFound();
    return c.html(page, 404, { "Cache-Control": "no-store" });
  }
  const out = await renderSite(c, req, ctx, { path, consent, year, group });
  if (!shared || out.personal) return privateResponse(out);
  const body = utf8Bytes(out.body ?? "");
  const page: CachedPage = {
    status: out.status,
    body,
    etag: etagOf(body),
    headers: out.headers,
    websiteId: ctx.website.id,
    countsAsView: out.view === true,
    ...(out.expiresAt ? { expiresAt: out.expiresAt } : {}),
    ...(out.vary ? { vary: out.vary } : {}),
    ...(out.store ? { store: out.store } : {}),
  };
  if (cache && CACHED_STATUSES.has(page.status)) cache.set(ctx.website.userId, keyToStore(page, keyOf, group), page);
  return deliver(c, req, page);
}

/** The verified custom domain that `host` is the www. or bare form of, if any. */
async function otherFormOf(db: Db, contexts: SiteContexts | null, host: string): Promise<string | null> {
  const other = host.startsWith("www.") ? host.slice(4) : `www.${host}`;
  if (!other.includes(".")) return null;
  const ctx = await loadSiteContext(db, { customDomain: other }, contexts);
  return ctx?.website.customDomain ?? null;
}

/**
 * The floating Edit Book link, for the book's owner only and only in the app host's preview:
 * the dashboard's session cookie belongs to the app host and never reaches tenant hosts, and
 * tenant pages are shared through caches, so they must not differ per reader.
 */
async function editHrefFor(
  c: Context<SiteVars>,
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

/** The answer for one request to a site that exists. */
async function renderSite(
  c: Context<SiteVars>,
  req: SiteRequest,
  ctx: SiteContext,
  r: { path: string; consent: boolean; year: number; group: CountryGroup },
): Promise<Out> {
  const deps = c.get("deps");
  const db = deps.database.db;
  const { path } = r;
  const method = c.req.method;
  const w = ctx.website;
  const env: PageEnv = {
    ctx,
    origin: siteOrigin(c, ctx),
    base: req.basePath,
    mode: req.mode,
    readOnly: req.mode === "demo" || w.subdomain === DEMO_SUBDOMAIN,
    path,
    showCookieBanner: !r.consent,
    now: new Date(),
    uploadsBase: deps.env.uploadsPublicUrl,
    year: r.year,
  };
  const html = (page: Page) => renderHtml(env, page, path);
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

  // Until checkout completes, readers see that the site is coming, not the author's content
  // (the owner's preview on the app host shows it as it will be).
  if (!ctx.published && req.mode === "tenant") {
    return plain(503, renderComingSoon(name), { "Content-Type": HTML, "Retry-After": "86400" });
  }

  if (method === "POST") return answerForm(c, req, ctx, env);
  if (method !== "GET" && method !== "HEAD")
    return plain(405, "Method not allowed", { "Content-Type": "text/plain; charset=UTF-8", Allow: "GET, HEAD, POST" });

  const { origin } = env;
  const buy = w.booksEnabled ? BUY_PATH.exec(path) : null;
  switch (true) {
    case buy !== null: {
      // A reader following a store link (ADR 036): counted, then sent to the address stored for
      // that link of that book, never to one the request names.
      const detail = await getVisibleBook(db, w.userId, buy?.[1] ?? "", ctx.bookLimit);
      const stores = detail ? storesOf(detail) : [];
      // "amazon" named the book's own Amazon link before it became one of its store links (issue 30):
      // pages kept by a CDN from then still send readers to the book's first Amazon.
      const store =
        stores.find((x) => x.id === buy?.[2]) ??
        (buy?.[2] === "amazon" ? stores.find((x) => x.storefront?.startsWith("amazon-")) : undefined);
      if (!detail || !store) return notFound();
      if (req.mode !== "preview" && method === "GET" && !isBot(c.req.header("user-agent"))) {
        const reader = { address: clientAddress(c, deps.env.trustProxy), userAgent: c.req.header("user-agent") };
        await recordStoreClick(db, detail.book.id, statsKey(store), reader).catch((err: unknown) => {
          deps.logger.warn({ err }, "store click not counted");
        });
      }
      return { ...plain(302, null, { Location: store.url, "X-Robots-Tag": "noindex" }), personal: true };
    }
    case path === "/": {
      const books = w.booksEnabled ? await listVisibleBooks(db, w.userId, ctx.bookLimit) : [];
      return untilReleased(
        books,
        env.now,
        html({
          status: 200,
          head: {
            title: ctx.website.websiteTitle?.trim() || name,
            description:
              w.tagline ||
              ctx.profile.tagline ||
              plainText(ctx.profile.bio) ||
              `The author website of ${ctx.profile.name}.`,
            image: w.heroImageUrl ? safeCssUrl(w.heroImageUrl) : null,
            jsonLd: [personLd(ctx, origin)],
          },
          body: <HomePage env={env} books={books} />,
        }),
      );
    }
    case path === "/news":
      return plain(301, null, { Location: href(env, "/blog") });
    // An empty section answers 'not found' like a switched-off one, until it has content (ADR 052).
    case path === "/books" && sectionShown(ctx, "books"): {
      const books = await listVisibleBooks(db, w.userId, ctx.bookLimit);
      return untilReleased(
        books,
        env.now,
        html({
          status: 200,
          head: { title: `Books | ${name}`, description: `Explore ${books.length} books by ${ctx.profile.name}.` },
          body: <BooksPage env={env} books={books} />,
        }),
      );
    }
    case path.startsWith("/book/") && w.booksEnabled: {
      const address = path.slice("/book/".length);
      const detail = await getVisibleBook(db, w.userId, address, ctx.bookLimit);
      // An id (the addresses before ADR 051) or a title the book had before: its page is at its
      // current address, for good.
      if (detail && detail.book.slug !== address)
        return plain(301, null, { Location: href(env, bookPath(detail.book)) });
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
      const box = buyBoxFor(detail, r.group);
      const cover = bookCover(b);
      const days = daysUntil(b.releaseDate, env.now);
      const page: Out = {
        ...html({
          status: 200,
          head: {
            title: `${b.title} | ${name}`,
            description: plainText(b.shortBlurb) || `${b.title} by ${b.author}`,
            image: cover,
            type: "book",
            jsonLd: [bookLd(detail, origin, box.first, env.now), breadcrumbLd(bookCrumbs(b.title), origin, path)],
          },
          body: <BookPage env={env} detail={detail} buyBox={box} editHref={await editHrefFor(c, req, ctx, b.id)} />,
        }),
        // Which store comes first may depend on the reader's country group.
        ...(box.differs ? { vary: countryVary(deps.env.countryHeader) } : {}),
        ...(box.first ? { store: { bookId: b.id, store: statsKey(box.first) } } : {}),
      };
      // A pre-order counts the days down: the page is right until midnight.
      return days !== null && days > 0 ? { ...page, expiresAt: nextDayStarts(env.now) } : page;
    }
    case path.startsWith("/series/") && w.booksEnabled: {
      const slug = path.slice("/series/".length);
      const { books, movedTo } = await seriesBooks(db, w.userId, ctx.bookLimit, slug);
      const series = findSeries(books, slug);
      if (!series) {
        // A series renamed since: its old address leads to its new one, as a post's does.
        if (movedTo && movedTo !== slug) return plain(301, null, { Location: href(env, `/series/${movedTo}`) });
        return html({
          status: 404,
          head: { title: `Series not found | ${name}` },
          body: (
            <MessagePage
              env={env}
              title="Series not found"
              text="The series you are looking for does not exist or has no books to show."
            />
          ),
        });
      }
      const first = series.books[0];
      return untilReleased(
        series.books,
        env.now,
        html({
          status: 200,
          head: {
            title: `${series.name} | ${name}`,
            description:
              series.description ??
              `${series.name}: a series of ${series.books.length} ${series.books.length === 1 ? "book" : "books"} by ${ctx.profile.name}, in reading order.`,
            image: first ? bookCover(first) : null,
            jsonLd: [bookSeriesLd(series, ctx, origin), breadcrumbLd(seriesCrumbs(series.name), origin, path)],
          },
          body: <SeriesPage env={env} name={series.name} description={series.description} books={series.books} />,
        }),
      );
    }
    case path === "/about" && sectionShown(ctx, "about"):
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
    case path === "/blog" && sectionShown(ctx, "blog"): {
      const category = blogCategory(c);
      const posts = await listPosts(db, w.userId);
      const t = blogTitles(ctx);
      const shown = category ? posts.filter((p) => p.category === category) : posts;
      return html({
        status: 200,
        head: {
          title: `${t.title} | ${name}`,
          description: t.description,
          jsonLd: shown.slice(0, 20).map((p) => blogPostingLd(p, ctx, origin)),
        },
        body: <BlogPage env={env} posts={posts} category={category} />,
      });
    }
    case path.startsWith("/blog/") && w.newsEnabled: {
      const found = await findPost(db, w.userId, path.slice("/blog/".length));
      if (found && "movedTo" in found) return plain(301, null, { Location: href(env, `/blog/${found.movedTo}`) });
      if (!found) {
        return html({
          status: 404,
          head: { title: `Post not found | ${name}` },
          body: (
            <MessagePage
              env={env}
              title="Post not found"
              text="The post you are looking for does not exist or has been removed."
            />
          ),
        });
      }
      const { post } = found;
      return html({
        status: 200,
        head: {
          title: `${post.title} | ${name}`,
          description: cut(plainText(post.content), 160) || post.title,
          image: firstImageOf(post.content),
          type: "article",
          jsonLd: [blogPostingLd(post, ctx, origin)],
        },
        body: <PostPage env={env} post={post} />,
      });
    }
    case path === "/newsletter" && sectionShown(ctx, "newsletter"):
      return html({
        status: 200,
        head: { title: `Newsletter | ${name}`, description: `Subscribe to ${ctx.profile.name}'s newsletter.` },
        body: <NewsletterPage env={env} />,
      });
    case path === "/alerts/confirm" && w.booksEnabled: {
      const token = c.req.query("token") ?? "";
      const title = `Release alert | ${name}`;
      if (!isAlertToken(token)) {
        return {
          ...html({
            status: 404,
            head: { title },
            body: <MessagePage env={env} title="Link not valid" text={ALERT_LINK_INVALID} />,
          }),
          personal: true,
        };
      }
      return {
        ...html({
          status: 200,
          head: { title },
          body: (
            <ConfirmSubscription
              env={env}
              token={token}
              action="/alerts/confirm"
              heading="Confirm your release alert"
              text="Press the button to get one email when the book comes out."
              button="Confirm"
            />
          ),
        }),
        personal: true,
        view: false,
      };
    }
    case path === "/newsletter/confirm" && w.newsletterEnabled: {
      const token = c.req.query("token") ?? "";
      const title = `Newsletter | ${name}`;
      if (!isConfirmToken(token)) {
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
    // Author-provided HTML, on the author's own host only: under the app host's origin a
    // phishing form would carry our name (previews frame the site's own URL instead).
    case path === "/newsletter/embed" && w.newsletterEnabled && req.mode === "tenant": {
      const code = ctx.customization?.newsletterEmbedCode?.trim();
      if (!code) return notFound();
      // The provider's code runs only inside a sandboxed, opaque-origin frame: it cannot reach the
      // site. The site's own pages and the app host's previews of it may frame it.
      const appOrigin = new URL(deps.env.appOrigin).origin;
      return plain(200, embedDocument(code), {
        "Content-Type": HTML,
        "Content-Security-Policy": `sandbox allow-scripts allow-forms allow-popups; frame-ancestors 'self' ${appOrigin}`,
      });
    }
    case path === "/contact" && w.contactEnabled:
      return html({
        status: 200,
        head: { title: `Contact | ${name}`, description: `Get in touch with ${ctx.profile.name}.` },
        body: <ContactPage env={env} />,
      });
    case path === "/privacy" && privacyShown(ctx):
      return html({ status: 200, head: { title: `Privacy & Legal | ${name}` }, body: <PrivacyPage env={env} /> });
    case path === "/robots.txt":
      return plain(200, robotsTxt(req.mode, origin), { "Content-Type": "text/plain; charset=UTF-8" });
    case path === "/sitemap.xml": {
      const entries = await sitemapEntries(db, w.userId, {
        books: w.booksEnabled,
        posts: w.newsEnabled,
        bookLimit: ctx.bookLimit,
      });
      return plain(200, sitemapXml(ctx, origin, entries), { "Content-Type": "application/xml; charset=UTF-8" });
    }
    case path === "/rss.xml" && sectionShown(ctx, "blog"):
      return plain(200, rssXml(ctx, origin, name, await listPosts(db, w.userId)), {
        "Content-Type": "application/rss+xml; charset=UTF-8",
      });
    default:
      return notFound();
  }
}
