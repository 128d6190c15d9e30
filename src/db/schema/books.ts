// The catalogue: books and what hangs off them.
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CURRENCIES } from "../../shared/enums.ts";
import { STORE_CURRENCIES, STOREFRONT_IDS } from "../../shared/storefronts.ts";
import { user } from "./auth.ts";
import { perDayTables, slugHistory } from "./shapes.ts";
import { count, createdAt, oneOf, parentText, parentUuid, timestamps, uuidKey } from "./util.ts";

/** Stored WebP variants of an uploaded image, widest last. */
export type ImageVariants = { width: number; height: number; url: string }[];

export const books = pgTable(
  "books",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    title: text("title").notNull(),
    /** The book's address under /book/, unique per author; earlier ones redirect (book_slugs, ADR 051). */
    slug: text("slug").notNull(),
    subtitle: text("subtitle"),
    author: text("author").notNull(),
    isbn: text("isbn"),
    shortBlurb: text("short_blurb"),
    releaseDate: date("release_date", { mode: "string" }),
    seriesName: text("series_name"),
    orderInSeries: integer("order_in_series"),
    coverImageUrl: text("cover_image_url"),
    coverImageVariants: jsonb("cover_image_variants").$type<ImageVariants>(),
    /** Minor units (pence, cents) of `primaryCurrency`. */
    primaryPriceMinor: integer("primary_price_minor"),
    primaryCurrency: text("primary_currency").notNull().default("GBP"),
    formatEbook: boolean("format_ebook").notNull().default(true),
    formatPaperback: boolean("format_paperback").notNull().default(false),
    formatHardback: boolean("format_hardback").notNull().default(false),
    formatAudiobook: boolean("format_audiobook").notNull().default(false),
    formatKindleUnlimited: boolean("format_kindle_unlimited").notNull().default(false),
    format: text("format").notNull().default("Multiple"),
    isFeatured: boolean("is_featured").notNull().default(false),
    visibilityEnabled: boolean("visibility_enabled").notNull().default(true),
    /**
     * Hidden because a smaller plan did not cover it (ADR 054), not by the author's own choice: a
     * bigger plan shows it again. Only ever set on a hidden book.
     */
    hiddenByPlan: boolean("hidden_by_plan").notNull().default(false),
    sortOrder: integer("sort_order").notNull().default(0),
    userRating: numeric("user_rating", { precision: 2, scale: 1, mode: "number" }),
    showUserRating: boolean("show_user_rating").notNull().default(false),
    bestsellerBadgeEnabled: boolean("bestseller_badge_enabled").notNull().default(false),
    promoBadgeEnabled: boolean("promo_badge_enabled").notNull().default(false),
    promoBadgeText: text("promo_badge_text"),
    amazonRatingEnabled: boolean("amazon_rating_enabled").notNull().default(false),
    reviewSnippet: text("review_snippet"),
    audiobookEnabled: boolean("audiobook_enabled").notNull().default(false),
    narratorName: text("narrator_name"),
    audioSampleUrl: text("audio_sample_url"),
    ...timestamps(),
  },
  (t) => [
    index("books_user_sort_idx").on(t.userId, t.sortOrder),
    uniqueIndex("books_user_slug_idx").on(t.userId, t.slug),
    // Exactly one featured book per author is a rule of the product, so the database keeps it.
    uniqueIndex("books_one_featured_per_user_idx").on(t.userId).where(sql`${t.isFeatured}`),
    check("books_currency_check", oneOf(t.primaryCurrency, CURRENCIES)),
    check("books_price_check", sql`${t.primaryPriceMinor} >= 0`),
    check("books_order_in_series_check", sql`${t.orderInSeries} >= 1`),
    check("books_rating_check", sql`${t.userRating} between 0 and 5`),
    check("books_sort_order_check", sql`${t.sortOrder} >= 0`),
    check("books_hidden_by_plan_check", sql`not (${t.hiddenByPlan} and ${t.visibilityEnabled})`),
  ],
);

/**
 * A book's earlier addresses: a renamed book's old `/book/{slug}` answers 301 to its current one
 * (ADR 051). They stay reserved for that book; a book renamed back takes its own old slug again.
 */
export const bookSlugs = slugHistory("book_slugs", "bookId", "book_id", () => books.id);

/**
 * A series' own fields (ADR 034). Its books are the author's books whose series name matches the
 * name, case and outer spaces aside; the books service keeps a row for every name a book uses.
 */
export const bookSeries = pgTable(
  "book_series",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    name: text("name").notNull(),
    description: text("description"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("book_series_user_name_idx").on(t.userId, sql`lower(btrim(${t.name}))`)],
);

/**
 * A series' earlier addresses: a renamed series' old `/series/{slug}` answers 301 to its current
 * one. The latest series to leave an address gets it; a series that takes back an old address
 * drops that row.
 */
export const bookSeriesSlugs = slugHistory("book_series_slugs", "seriesId", "series_id", () => bookSeries.id);

/**
 * Launch alerts: readers who asked to be told when a book comes out (Launches, issue 17; the code
 * is `modules/books/launches.*`). Named as the table, which keeps its name. Double opt-in like the
 * newsletter, per book; `notifiedAt` is set in the transaction that queues the release mail, so
 * a reader is told once. `unsubscribed`: the reader followed an unsubscribe link (ADR 065).
 */
export const releaseAlerts = pgTable(
  "release_alerts",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    bookId: parentUuid("book_id", () => books.id),
    email: text("email").notNull(),
    status: text("status").notNull().default("pending"),
    confirmToken: text("confirm_token").notNull(),
    createdAt: createdAt(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("release_alerts_book_email_idx").on(t.bookId, sql`lower(${t.email})`),
    uniqueIndex("release_alerts_token_idx").on(t.confirmToken),
    // The launch job's look for readers still to tell (ADR 073).
    index("release_alerts_due_idx").on(t.bookId).where(sql`${t.status} = 'confirmed' and ${t.notifiedAt} is null`),
    // bounced: a 5xx answered its release mail; the address is never mailed again (ADR 073).
    check("release_alerts_status_check", sql`${t.status} in ('pending', 'confirmed', 'unsubscribed', 'bounced')`),
  ],
);

export const retailerLinks = pgTable(
  "retailer_links",
  {
    id: uuidKey(),
    bookId: parentUuid("book_id", () => books.id),
    retailerName: text("retailer_name").notNull(),
    retailerUrl: text("retailer_url").notNull(),
    retailerIcon: text("retailer_icon"),
    /** Which store (src/shared/storefronts.ts), so readers get their own first; null = any other. */
    storefront: text("storefront"),
    /** The price on this store, in minor units of `currency` (ADR 036), if the author gave one. */
    priceMinor: integer("price_minor"),
    currency: text("currency"),
    sortOrder: integer("sort_order").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("retailer_links_book_idx").on(t.bookId, t.sortOrder),
    check("retailer_links_url_check", sql`${t.retailerUrl} ~* '^https?://'`),
    check("retailer_links_storefront_check", oneOf(t.storefront, STOREFRONT_IDS)),
    check("retailer_links_currency_check", oneOf(t.currency, STORE_CURRENCIES)),
    check(
      "retailer_links_price_check",
      sql`(${t.priceMinor} is null) = (${t.currency} is null) and ${t.priceMinor} >= 0`,
    ),
  ],
);

/**
 * The buy box per book, store and UTC day (ADR 036): how often a store was the reader's first
 * (`shown`, counted with the page view) and how often readers followed a link to it (`clicks`,
 * through /book/{address}/buy/{link}). No reader is identified; `store` is a storefront id or "other".
 */
const perBookAndDay = perDayTables("book", () => ({ bookId: parentUuid("book_id", () => books.id) }));

export const bookStoreStats = perBookAndDay(
  "book_store_stats",
  { store: text("store").notNull() },
  { shown: count("shown"), clicks: count("clicks") },
);

/**
 * Readers who followed a store link of a book on a day, each as a 32-bit slice of a salted hash
 * (the day's visit salt, the book, address and browser; ADR 032, 049): a click is counted once per
 * reader, book and day, in whichever process sees it first. Rows older than yesterday are deleted.
 */
export const bookStoreClickers = perBookAndDay("book_store_clickers", { reader: integer("reader").notNull() }, {});

export const bookGenres = pgTable(
  "book_genres",
  {
    id: uuidKey(),
    bookId: parentUuid("book_id", () => books.id),
    genreName: text("genre_name").notNull(),
    /** The author's order; genres are shown in it. */
    position: smallint("position").notNull().default(0),
  },
  (t) => [uniqueIndex("book_genres_book_name_idx").on(t.bookId, sql`lower(${t.genreName})`)],
);

export const reviews = pgTable(
  "reviews",
  {
    id: uuidKey(),
    bookId: parentUuid("book_id", () => books.id),
    rating: numeric("rating", { precision: 2, scale: 1, mode: "number" }),
    reviewerName: text("reviewer_name"),
    reviewText: text("review_text").notNull(),
    reviewDate: date("review_date", { mode: "string" }),
    amazonReviewId: text("amazon_review_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("reviews_book_idx").on(t.bookId, t.createdAt),
    check("reviews_rating_check", sql`${t.rating} between 0 and 5`),
  ],
);
