// The books' page kinds: the list, a book's page, its store links and its release alert, a series.
import { clientAddress } from "../../server/lib/client-address.ts";
import { isBot } from "../../server/modules/analytics/visit-counter.ts";
import { daysUntil, nextDayStarts, signUpForReleaseAlert } from "../../server/modules/books/launches.service.ts";
import {
  findSeries,
  getVisibleBook,
  listVisibleBooks,
  sectionShown,
  seriesBooks,
} from "../../server/modules/sites/sites.service.ts";
import { recordStoreClick } from "../../server/modules/stats/stats.service.ts";
import { bookPath } from "../../shared/book-path.ts";
import { type Answer, formStatus, notFoundPage, pageKind, personal, plain, under } from "../answer.tsx";
import { buyBoxFor, statsKey, storesOf } from "../buy-box.ts";
import { countryVary } from "../delivery/delivery.ts";
import type { Out } from "../document.tsx";
import { BookPage, bookCrumbs } from "../pages/book-page.tsx";
import { BooksPage } from "../pages/books-page.tsx";
import { href } from "../pages/layout.tsx";
import { isPreorder } from "../pages/parts.tsx";
import { SeriesPage, seriesCrumbs } from "../pages/series-page.tsx";
import { plainText } from "../sanitize.ts";
import { bookCover, bookLd, bookSeriesLd, breadcrumbLd } from "../structured-data.ts";

/** A page listing a pre-order says "Out on …" until its day: kept only until midnight. */
export function untilReleased(books: readonly { releaseDate: string | null }[], now: Date, page: Out): Out {
  return books.some((b) => isPreorder(b.releaseDate, now)) ? { ...page, expiresAt: nextDayStarts(now) } : page;
}

/** A store link on a book page: /book/{book address}/buy/{link id} (any address of the book). */
const BUY_PATH = /^\/book\/([^/]+)\/buy\/([^/]+)$/;
/** A book's release alert form posts here: any address of the book (as pages cached before ADR 051 post). */
const ALERT_PATH = /^\/book\/([^/]+)\/alert$/;

/**
 * A reader following a store link (ADR 036): counted, then sent to the address stored for that
 * link of that book, never to one the request names.
 */
export const storeLink = pageKind({
  name: "store link",
  match: (path, site) => (site.ctx.website.booksEnabled ? BUY_PATH.exec(path) : null),
  async get(a, [, address = "", linkId]) {
    const { c, deps, db, ctx } = a;
    const detail = await getVisibleBook(db, ctx.website.userId, address, ctx.bookLimit);
    const stores = detail ? storesOf(detail) : [];
    // "amazon" named the book's own Amazon link before it became one of its store links (issue 30):
    // pages kept by a CDN from then still send readers to the book's first Amazon.
    const store =
      stores.find((x) => x.id === linkId) ??
      (linkId === "amazon" ? stores.find((x) => x.storefront?.startsWith("amazon-")) : undefined);
    if (!detail || !store) return notFoundPage(a.env);
    if (a.req.mode !== "preview" && c.req.method === "GET" && !isBot(c.req.header("user-agent"))) {
      const reader = { address: clientAddress(c, deps.env.trustProxy), userAgent: c.req.header("user-agent") };
      await recordStoreClick(db, detail.book.id, statsKey(store), reader).catch((err: unknown) => {
        deps.logger.warn({ err }, "store click not counted");
      });
    }
    return personal(plain(302, null, { Location: store.url, "X-Robots-Tag": "noindex" }));
  },
});

// An empty section answers 'not found' like a switched-off one, until it has content (ADR 052).
export const books = pageKind({
  name: "books",
  match: (path, site) => (path === "/books" && sectionShown(site.ctx, "books") ? {} : null),
  async get(a) {
    const { ctx, env } = a;
    const list = await listVisibleBooks(a.db, ctx.website.userId, ctx.bookLimit);
    return untilReleased(
      list,
      env.now,
      a.html({
        status: 200,
        head: { title: `Books | ${a.name}`, description: `Explore ${list.length} books by ${ctx.profile.name}.` },
        body: <BooksPage env={env} books={list} />,
      }),
    );
  },
});

/** A book's release alert sign-up, posted from its page: the page again, with how it went. */
export const releaseAlertSignUp = pageKind({
  name: "release alert sign-up",
  match: (path, site) => (site.ctx.website.booksEnabled ? ALERT_PATH.exec(path) : null),
  async post(a, [, address = ""]) {
    const { ctx, env, deps, db } = a;
    const w = ctx.website;
    const detail = await getVisibleBook(db, w.userId, address, ctx.bookLimit);
    // Capitalised in the demo too, as it always was here (the GET book page says "Book not found").
    if (!detail) return personal(notFoundPage(env, "book", "Book Not Found"));
    const b = detail.book;
    const outcome = env.readOnly
      ? ({ ok: false, code: "forbidden", error: "The demo site is read-only." } as const)
      : await signUpForReleaseAlert(
          { db, mailer: deps.mailer, logger: deps.logger, limits: deps.sites.limits },
          {
            userId: w.userId,
            book: { id: b.id, releaseDate: b.releaseDate },
            clientAddress: a.ip,
            fields: a.fields,
            confirmUrl: (token) => `${env.origin}${href(env, "/alerts/confirm")}?token=${encodeURIComponent(token)}`,
            requestId: a.requestId,
          },
        );
    return personal(
      a.html({
        status: formStatus(outcome),
        head: { title: `${b.title} | ${a.name}` },
        body: (
          <BookPage
            env={env}
            detail={detail}
            buyBox={buyBoxFor(detail, a.group)}
            alert={outcome.ok ? { done: true } : { error: outcome.error }}
          />
        ),
      }),
    );
  },
});

/**
 * The floating Edit Book link, for the book's owner only and only in the app host's preview:
 * the dashboard's session cookie belongs to the app host and never reaches tenant hosts, and
 * tenant pages are shared through caches, so they must not differ per reader.
 */
async function editHrefFor(a: Answer, bookId: string): Promise<string | undefined> {
  if (a.req.mode !== "preview" || !a.c.req.header("cookie")) return undefined;
  try {
    const session = await a.deps.auth.api.getSession({ headers: a.c.req.raw.headers });
    return session?.user.id === a.ctx.website.userId ? `/edit-book/${encodeURIComponent(bookId)}` : undefined;
  } catch {
    return undefined;
  }
}

export const book = pageKind({
  name: "book",
  match: (path, site) => under(path, "/book/", site.ctx.website.booksEnabled, "address"),
  async get(a, { address }) {
    const { ctx, env, deps } = a;
    const detail = await getVisibleBook(a.db, ctx.website.userId, address, ctx.bookLimit);
    // An id (the addresses before ADR 051) or a title the book had before: its page is at its
    // current address, for good.
    if (detail && detail.book.slug !== address) return plain(301, null, { Location: href(env, bookPath(detail.book)) });
    if (!detail) return notFoundPage(env, "book", a.req.mode === "demo" ? "Book not found" : undefined);
    const b = detail.book;
    const box = buyBoxFor(detail, a.group);
    const cover = bookCover(b);
    const days = daysUntil(b.releaseDate, env.now);
    const page: Out = {
      ...a.html({
        status: 200,
        head: {
          title: `${b.title} | ${a.name}`,
          description: plainText(b.shortBlurb) || `${b.title} by ${b.author}`,
          image: cover,
          type: "book",
          jsonLd: [
            bookLd(detail, env.origin, box.first, env.now),
            breadcrumbLd(bookCrumbs(b.title), env.origin, a.path),
          ],
        },
        body: <BookPage env={env} detail={detail} buyBox={box} editHref={await editHrefFor(a, b.id)} />,
      }),
      // Which store comes first may depend on the reader's country group.
      ...(box.differs ? { vary: countryVary(deps.env.countryHeader) } : {}),
      ...(box.first ? { store: { bookId: b.id, store: statsKey(box.first) } } : {}),
    };
    // A pre-order counts the days down: the page is right until midnight.
    return days !== null && days > 0 ? { ...page, expiresAt: nextDayStarts(env.now) } : page;
  },
});

export const series = pageKind({
  name: "series",
  match: (path, site) => under(path, "/series/", site.ctx.website.booksEnabled, "slug"),
  async get(a, { slug }) {
    const { ctx, env } = a;
    const { books: all, movedTo } = await seriesBooks(a.db, ctx.website.userId, ctx.bookLimit, slug);
    const found = findSeries(all, slug);
    if (!found) {
      // A series renamed since: its old address leads to its new one, as a post's does.
      if (movedTo && movedTo !== slug) return plain(301, null, { Location: href(env, `/series/${movedTo}`) });
      return notFoundPage(env, "series");
    }
    const first = found.books[0];
    const count = found.books.length;
    return untilReleased(
      found.books,
      env.now,
      a.html({
        status: 200,
        head: {
          title: `${found.name} | ${a.name}`,
          description:
            found.description ??
            `${found.name}: a series of ${count} ${count === 1 ? "book" : "books"} by ${ctx.profile.name}, in reading order.`,
          image: first ? bookCover(first) : null,
          jsonLd: [bookSeriesLd(found, ctx, env.origin), breadcrumbLd(seriesCrumbs(found.name), env.origin, a.path)],
        },
        body: <SeriesPage env={env} name={found.name} description={found.description} books={found.books} />,
      }),
    );
  },
});
