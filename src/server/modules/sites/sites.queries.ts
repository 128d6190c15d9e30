// Queries behind the public author sites. A page is one context query plus at most one page query.
import { and, asc, desc, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import {
  blogPostSlugs,
  blogPosts,
  books,
  contactSettings,
  domainVerifications,
  legalPages,
  profiles,
  subscriptions,
  websiteCustomization,
  websites,
} from "../../../db/schema/index.ts";

const customDomainVerified = sql<boolean>`exists (select 1 from domain_verifications dv where dv.user_id = "websites"."user_id" and lower(dv.domain) = lower("websites"."custom_domain") and dv.verified)`;

function contextQuery(db: Db) {
  return db
    .select({
      website: websites,
      profile: profiles,
      customization: websiteCustomization,
      // Not the whole row: the contact address's verification state stays out of every page.
      contact: {
        contactEmail: contactSettings.contactEmail,
        enableContactForm: contactSettings.enableContactForm,
        socialLinks: contactSettings.socialLinks,
        antispamEnabled: contactSettings.antispamEnabled,
      },
      legal: { content: legalPages.content, isEnabled: legalPages.isEnabled },
      subscriptionStatus: subscriptions.status,
      subscriptionTier: subscriptions.tier,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      providerSubscriptionId: subscriptions.providerSubscriptionId,
      customDomainVerified,
      // Whether the sections that hide while empty have anything in them (ADR 052).
      hasVisibleBooks: sql<boolean>`exists (select 1 from books b where b.user_id = ${websites.userId} and b.visibility_enabled)`,
      hasPosts: sql<boolean>`exists (select 1 from blog_posts p where p.user_id = ${websites.userId})`,
      // The free book the sign-up form offers (ADR 068), if any.
      magnetTitle: sql<string | null>`(select m.title from reader_magnets m where m.user_id = ${websites.userId})`,
      // Staff banned the owner (the back office): the site answers the unavailable page.
      ownerBanned: sql<boolean>`coalesce((select u.banned from "user" u where u.id = ${websites.userId}), false)`,
    })
    .from(websites)
    .innerJoin(profiles, eq(profiles.id, websites.userId))
    .leftJoin(websiteCustomization, eq(websiteCustomization.userId, websites.userId))
    .leftJoin(contactSettings, eq(contactSettings.userId, websites.userId))
    .leftJoin(legalPages, and(eq(legalPages.userId, websites.userId), eq(legalPages.pageType, "privacy_legal")))
    .leftJoin(subscriptions, eq(subscriptions.userId, websites.userId));
}

export type SiteContextRow = Awaited<ReturnType<ReturnType<typeof contextQuery>["execute"]>>[number];

export async function selectContextBySubdomain(db: Db, subdomain: string): Promise<SiteContextRow | null> {
  const [row] = await statements(db).contextBySubdomain.execute({ subdomain: subdomain.toLowerCase() });
  return row ?? null;
}

/** The owner's own site, as readers' requests read it (the dashboard's "is it live" asks this). */
export async function selectContextByUser(db: Db, userId: string): Promise<SiteContextRow | null> {
  const [row] = await contextQuery(db).where(eq(websites.userId, userId));
  return row ?? null;
}

export async function selectContextByCustomDomain(db: Db, domain: string): Promise<SiteContextRow | null> {
  const [row] = await statements(db).contextByCustomDomain.execute({ domain: domain.toLowerCase() });
  return row ?? null;
}

const firstGenre = sql<
  string | null
>`(select bg.genre_name from book_genres bg where bg.book_id = "books"."id" order by bg.position, bg.id limit 1)`;

/** Public order of an author's books; `id` makes it total, so "the first N" is well defined. */
const publicOrder = [asc(books.sortOrder), asc(books.createdAt), asc(books.id)];

/** The author's (`userId`) books readers may see; the plan's limit comes after the order. */
const visibleToReaders = and(eq(books.userId, sql.placeholder("userId")), eq(books.visibilityEnabled, true));

/** What a public list of books shows of each book. */
const visibleBookColumns = {
  id: books.id,
  title: books.title,
  slug: books.slug,
  subtitle: books.subtitle,
  shortBlurb: books.shortBlurb,
  releaseDate: books.releaseDate,
  coverImageUrl: books.coverImageUrl,
  coverImageVariants: books.coverImageVariants,
  primaryPriceMinor: books.primaryPriceMinor,
  primaryCurrency: books.primaryCurrency,
  isFeatured: books.isFeatured,
  promoBadgeEnabled: books.promoBadgeEnabled,
  promoBadgeText: books.promoBadgeText,
  bestsellerBadgeEnabled: books.bestsellerBadgeEnabled,
  userRating: books.userRating,
  showUserRating: books.showUserRating,
  seriesName: books.seriesName,
  orderInSeries: books.orderInSeries,
  /** The series' own description (its page shows it; ADR 034). */
  seriesDescription: sql<
    string | null
  >`(select bs.description from book_series bs where bs.user_id = "books"."user_id" and lower(btrim(bs.name)) = lower(btrim("books"."series_name")))`,
  updatedAt: books.updatedAt,
  firstGenre,
  /** The author's first store link (the home page's featured book links to it). */
  firstStore: sql<{
    id: string;
    name: string;
  } | null>`(select json_build_object('id', r.id, 'name', r.retailer_name) from retailer_links r where r.book_id = "books"."id" and r.retailer_url ~* '^\\s*https?://' order by r.sort_order, r.created_at, r.id limit 1)`,
};

/**
 * The reads behind every uncached public page, built once per database handle: Drizzle then
 * skips assembling the SQL on each request (measured at about half the cost of the context
 * query on the embedded database), and PostgreSQL keeps the plan of each named statement.
 */
function prepareStatements(db: Db) {
  const p = sql.placeholder;
  return {
    contextBySubdomain: contextQuery(db)
      .where(eq(sql`lower(${websites.subdomain})`, p("subdomain")))
      .prepare("site_context_by_subdomain"),
    contextByCustomDomain: contextQuery(db)
      .where(and(eq(sql`lower(${websites.customDomain})`, p("domain")), customDomainVerified))
      .prepare("site_context_by_custom_domain"),
    visibleBooks: db
      .select(visibleBookColumns)
      .from(books)
      .where(visibleToReaders)
      .orderBy(...publicOrder)
      .limit(p("limit"))
      .prepare("site_visible_books"),
    // The series page's read: the visible books, each carrying the current name of the series
    // that was renamed from the address asked for (null when none), so that a renamed series'
    // old address costs no second round trip. No visible book, no series page to lead to.
    seriesBooks: db
      .select({
        ...visibleBookColumns,
        renamedTo: sql<
          string | null
        >`(select bs.name from book_series_slugs ss join book_series bs on bs.id = ss.series_id where ss.user_id = ${p("userId")} and ss.slug = ${p("slug")})`,
      })
      .from(books)
      .where(visibleToReaders)
      .orderBy(...publicOrder)
      .limit(p("limit"))
      .prepare("site_series_books"),
    visibleBook: db
      .select({
        book: books,
        genres: sql<
          string[] | null
        >`(select json_agg(bg.genre_name order by bg.position, bg.id) from book_genres bg where bg.book_id = "books"."id")`,
        retailers: sql<
          RetailerRow[] | null
        >`(select json_agg(json_build_object('id', r.id, 'name', r.retailer_name, 'url', r.retailer_url, 'storefront', r.storefront, 'priceMinor', r.price_minor, 'currency', r.currency) order by r.sort_order, r.created_at, r.id) from retailer_links r where r.book_id = "books"."id")`,
        reviews: sql<
          ReviewRow[] | null
        >`(select json_agg(x) from (select rv.rating::float as "rating", rv.reviewer_name as "reviewerName", rv.review_text as "reviewText", rv.review_date as "reviewDate" from reviews rv where rv.book_id = "books"."id" order by rv.review_date desc nulls last, rv.created_at desc limit 5) x)`,
        // The book's series as readers see it: its visible books within the plan (the first
        // `limit` visible books by position, read once, rather than a count per series book), in
        // reading order.
        series: sql<
          SeriesBookRow[] | null
        >`(select json_agg(json_build_object('id', s.id, 'title', s.title, 'slug', s.slug) order by s.order_in_series nulls last, s.sort_order, s.created_at, s.id) from (select s2.id, s2.title, s2.slug, s2.series_name, s2.order_in_series, s2.sort_order, s2.created_at from books s2 where s2.user_id = "books"."user_id" and s2.visibility_enabled order by s2.sort_order, s2.created_at, s2.id limit ${p("limit")}) s where lower(btrim(s.series_name)) = lower(btrim("books"."series_name")))`,
      })
      .from(books)
      .where(
        and(
          eq(books.userId, p("userId")),
          // The address asked for: the book's own, one it had before, or its id (the addresses
          // before ADR 051). The caller redirects when the book's slug is not the one asked for.
          sql`(${books.slug} = ${p("slug")} or ${books.id} = ${p("bookId")} or ${books.id} = (select bsl.book_id from book_slugs bsl where bsl.user_id = ${p("userId")} and bsl.slug = ${p("slug")}))`,
          eq(books.visibilityEnabled, true),
          sql`(select count(*) from books b2 where b2.user_id = "books"."user_id" and b2.visibility_enabled and (b2.sort_order, b2.created_at, b2.id) < ("books"."sort_order", "books"."created_at", "books"."id")) < ${p("limit")}`,
        ),
      )
      .prepare("site_visible_book"),
    posts: db
      .select({
        id: blogPosts.id,
        title: blogPosts.title,
        slug: blogPosts.slug,
        content: blogPosts.content,
        category: blogPosts.category,
        createdAt: blogPosts.createdAt,
        updatedAt: blogPosts.updatedAt,
      })
      .from(blogPosts)
      .where(eq(blogPosts.userId, p("userId")))
      .orderBy(desc(blogPosts.createdAt))
      .limit(p("limit"))
      .prepare("site_posts"),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareStatements>>();
function statements(db: Db) {
  let s = prepared.get(db);
  if (!s) {
    s = prepareStatements(db);
    prepared.set(db, s);
  }
  return s;
}

/** The first `limit` visible books by position: the plan's cap on what readers see. */
export async function selectVisibleBooks(db: Db, userId: string, limit: number) {
  return statements(db).visibleBooks.execute({ userId, limit });
}

/** The visible books for a series page, and the series renamed from `slug`, if any (one round trip). */
export async function selectSeriesBooks(db: Db, userId: string, limit: number, slug: string) {
  const rows = await statements(db).seriesBooks.execute({ userId, limit, slug });
  return { books: rows, renamedTo: rows[0]?.renamedTo ?? null };
}

export type RetailerRow = {
  id: string;
  name: string;
  url: string;
  storefront: string | null;
  priceMinor: number | null;
  currency: string | null;
};
export type SeriesBookRow = { id: string; title: string; slug: string };
export type ReviewRow = {
  rating: number | null;
  reviewerName: string | null;
  reviewText: string;
  reviewDate: string | null;
};

const NO_BOOK_ID = "00000000-0000-0000-0000-000000000000";

/**
 * One visible book, only if it is among the first `limit` visible books by position, by its
 * address (`slug`), an earlier address, or its id (`bookId`, null when the address is no id).
 * Its own address wins over another book's id or earlier one.
 */
export async function selectVisibleBook(db: Db, userId: string, slug: string, bookId: string | null, limit: number) {
  // No id asked for is the nil UUID, which no book has (ids are random, version 4): with a value
  // in every parameter the plan PostgreSQL would make for these values is the one it keeps.
  const rows = await statements(db).visibleBook.execute({ userId, slug, bookId: bookId ?? NO_BOOK_ID, limit });
  return rows.find((r) => r.book.slug === slug) ?? rows[0] ?? null;
}

export async function selectPosts(db: Db, userId: string, limit = 200) {
  return statements(db).posts.execute({ userId, limit });
}

/**
 * Up to `limit` sites' subdomains, those changed last first: what the renderer warms itself on
 * before the process takes requests (ADR 075).
 */
export async function selectSubdomainsToWarm(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ subdomain: websites.subdomain })
    .from(websites)
    .where(isNotNull(websites.subdomain))
    .orderBy(desc(websites.updatedAt))
    .limit(limit);
  return rows.flatMap((r) => (r.subdomain ? [r.subdomain] : []));
}

/**
 * Sites whose pages may have changed since `since`: their website was marked changed, or their
 * subscription or a domain verification was written (billing and domains change what readers see).
 */
export async function selectSitesChangedSince(db: Db, since: Date): Promise<string[]> {
  const rows = await db
    .select({ userId: websites.userId })
    .from(websites)
    .where(gt(websites.updatedAt, since))
    .union(db.select({ userId: subscriptions.userId }).from(subscriptions).where(gt(subscriptions.updatedAt, since)))
    .union(
      db
        .select({ userId: domainVerifications.userId })
        .from(domainVerifications)
        .where(gt(domainVerifications.updatedAt, since)),
    );
  return rows.map((r) => r.userId);
}

/**
 * What the sitemap lists beyond the fixed pages, in one round trip: the visible books (no more
 * than the plan allows) and the posts, each with when it last changed. A limit of 0 leaves a kind out.
 */
export function selectSitemapEntries(db: Db, userId: string, bookLimit: number, postLimit: number) {
  const bookRows = db
    .select({
      kind: sql<"book" | "post">`'book'`,
      key: books.slug,
      series: books.seriesName,
      updatedAt: books.updatedAt,
    })
    .from(books)
    .where(and(eq(books.userId, userId), eq(books.visibilityEnabled, true)))
    .orderBy(...publicOrder)
    .limit(bookLimit);
  const postRows = db
    .select({
      kind: sql<"book" | "post">`'post'`,
      key: blogPosts.slug,
      series: sql<string | null>`null`,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .where(eq(blogPosts.userId, userId))
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(postLimit);
  return bookRows.unionAll(postRows);
}

/** The post at this address, or the address it moved to (a post renamed since): one round trip. */
export async function selectPostBySlug(
  db: Db,
  userId: string,
  slug: string,
): Promise<{ post: PostRowView } | { movedTo: string } | null> {
  const columns = {
    id: blogPosts.id,
    title: blogPosts.title,
    slug: blogPosts.slug,
    content: blogPosts.content,
    category: blogPosts.category,
    createdAt: blogPosts.createdAt,
    updatedAt: blogPosts.updatedAt,
  };
  const rows = await db
    .select({ ...columns, moved: sql<boolean>`false` })
    .from(blogPosts)
    .where(and(eq(blogPosts.userId, userId), eq(blogPosts.slug, slug)))
    .unionAll(
      db
        .select({ ...columns, moved: sql<boolean>`true` })
        .from(blogPostSlugs)
        .innerJoin(blogPosts, eq(blogPosts.id, blogPostSlugs.postId))
        .where(and(eq(blogPostSlugs.userId, userId), eq(blogPostSlugs.slug, slug))),
    );
  const row = rows.find((r) => !r.moved) ?? rows[0];
  if (!row) return null;
  const { moved, ...post } = row;
  // A union's rows come back as the driver reads them: timestamps may arrive as text.
  if (moved) return { movedTo: post.slug };
  return { post: { ...post, createdAt: new Date(post.createdAt), updatedAt: new Date(post.updatedAt) } };
}

type PostRowView = Awaited<ReturnType<typeof selectPosts>>[number];
