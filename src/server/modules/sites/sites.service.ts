// Finding the website a public request is for, and what its public pages show.

import type { Db } from "../../../db/client.ts";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "../../../shared/enums.ts";
import { isUuid } from "../../../shared/ids.ts";
import { bookLimit, isTier } from "../../../shared/plans.ts";
import { DEFAULT_BIO } from "../../../shared/schemas/profile.ts";
import {
  EMPTY_HIDDEN_SECTIONS,
  type EmptyHiddenSection,
  isPublished,
  type ReadersStatus,
  type SectionState,
  type SiteVisibility,
} from "../../../shared/schemas/site-status.ts";

import { SLUG_PATTERN, slugify } from "../../../shared/slug.ts";
import type { SiteContextCache } from "./context-cache.ts";
import type { PrivacyFacts } from "./privacy-notice.ts";
import * as q from "./sites.queries.ts";

// ---- The public site renderer's view of the data (src/sites/ calls only these). ----

export type SiteContext = Omit<q.SiteContextRow, "subscriptionStatus" | "providerSubscriptionId"> & {
  subscriptionStatus: SubscriptionStatus;
  /**
   * Whether readers may see the site: not while a trial waits for its checkout (no card entered
   * yet). Plans running without a provider (the demo, granted by staff) are public.
   */
  published: boolean;
  /** How many books readers may see: the owner's plan's limit (no subscription: mini). */
  bookLimit: number;
  /**
   * The one rule for whether readers see the site (ADR 052): 'live' answers pages, the others
   * the 'Coming soon' or 'temporarily unavailable' page. The dashboard says "live" from this.
   */
  visibility: SiteVisibility;
};

function toContext(row: q.SiteContextRow | null, now: Date): SiteContext | null {
  if (!row) return null;
  // Same reading as billing's getSubscription (no row = trial), joined here to save a round trip.
  let status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(row.subscriptionStatus ?? "")
    ? (row.subscriptionStatus as SubscriptionStatus)
    : "trial";
  // Cancelled stays live to the end of the paid period; past it the site is offline even if the
  // expiry job has not run yet.
  if (status === "cancelled" && row.currentPeriodEnd && row.currentPeriodEnd < now) status = "expired";
  // A banned owner's site is offline like an expired one (data kept; unbanning restores it).
  if (row.ownerBanned) status = "expired";
  const { providerSubscriptionId, ...rest } = row;
  // A trial whose card was never entered (onboarding makes the row; checkout sets the id).
  const published = isPublished({ status: row.subscriptionStatus, checkoutCompleted: providerSubscriptionId !== null });
  return {
    ...rest,
    subscriptionStatus: status,
    published,
    bookLimit: bookLimit(isTier(row.subscriptionTier) ? row.subscriptionTier : "mini"),
    // Expiry is checked first by the renderer: an expired site never shows 'Coming soon'.
    visibility: status === "expired" ? "offline" : published ? "live" : "awaiting_checkout",
  };
}

/** A bio with something readable in it (the pre-052 placeholder is none). */
function hasBio(bio: string | null | undefined): boolean {
  const text = (bio ?? "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;|&#160;/g, " ")
    .trim();
  return text !== "" && text !== DEFAULT_BIO;
}

function hasJourney(journey: unknown): boolean {
  return (
    Array.isArray(journey) &&
    journey.some(
      (j) => j && typeof j === "object" && [j.year, j.title, j.description].some((x) => String(x ?? "").trim()),
    )
  );
}

/**
 * Whether each section that hides while empty is in the menu (ADR 052): switched on, and with
 * something in it or shown anyway because the author chose so. The menu, the pages, the sitemap
 * and the dashboard all read this.
 */
export function sectionStates(ctx: SiteContext): Record<EmptyHiddenSection, SectionState> {
  const w = ctx.website;
  const chosen = new Set(Array.isArray(w.showWhenEmpty) ? w.showWhenEmpty : []);
  const raw: Record<EmptyHiddenSection, { enabled: boolean; hasContent: boolean }> = {
    books: { enabled: w.booksEnabled, hasContent: ctx.hasVisibleBooks === true },
    about: {
      enabled: w.aboutEnabled,
      // A photo is the author's own too; a page with only initials and a name is not.
      hasContent:
        hasBio(ctx.profile.bio) ||
        hasJourney(ctx.profile.writingJourney) ||
        Boolean(ctx.profile.authorPhotoUrl?.trim()),
    },
    blog: { enabled: w.newsEnabled, hasContent: ctx.hasPosts === true },
    // The site's own sign-up form counts only once the author has chosen it (shown when empty);
    // a provider's form pasted in is content.
    newsletter: { enabled: w.newsletterEnabled, hasContent: Boolean(ctx.customization?.newsletterEmbedCode?.trim()) },
  };
  const out = {} as Record<EmptyHiddenSection, SectionState>;
  for (const k of EMPTY_HIDDEN_SECTIONS) {
    const showWhenEmpty = chosen.has(k);
    out[k] = { ...raw[k], showWhenEmpty, shown: raw[k].enabled && (raw[k].hasContent || showWhenEmpty) };
  }
  return out;
}

/** Whether a section is in the site's menu and its page answers. */
/**
 * Whether a section is in the menu. A page asks this several times (the routes, the menu, the
 * footer, the head's feed link): the states are worked out once per context object (a request's,
 * made fresh from the row each time, never changed after).
 */
export function sectionShown(ctx: SiteContext, section: EmptyHiddenSection): boolean {
  const kept = statesOf.get(ctx.website);
  if (
    kept &&
    kept.profile === ctx.profile &&
    kept.customization === ctx.customization &&
    kept.hasVisibleBooks === ctx.hasVisibleBooks &&
    kept.hasPosts === ctx.hasPosts
  )
    return kept.states[section].shown;
  const states = sectionStates(ctx);
  statesOf.set(ctx.website, {
    profile: ctx.profile,
    customization: ctx.customization,
    hasVisibleBooks: ctx.hasVisibleBooks,
    hasPosts: ctx.hasPosts,
    states,
  });
  return states[section].shown;
}
/**
 * The states by the website object they were worked out for, with the rest of what they read.
 * A request's context is made fresh from the kept row, but its website, profile and
 * customization are the row's own objects, never changed (a change is a new row): a site's
 * requests share one entry until its row is read again, and a context built afresh (a preview)
 * has objects of its own.
 */
const statesOf = new WeakMap<
  SiteContext["website"],
  Pick<SiteContext, "profile" | "customization" | "hasVisibleBooks" | "hasPosts"> & {
    states: Record<EmptyHiddenSection, SectionState>;
  }
>();

/** What this site collects from readers, for the generated privacy notice (privacy-notice.ts). */
export function privacyFactsOf(ctx: SiteContext, origin: string): PrivacyFacts {
  const sections = sectionStates(ctx);
  const w = ctx.website;
  return {
    authorName: ctx.profile.name,
    siteName: w.websiteName?.trim() || ctx.profile.name,
    siteAddress: origin.replace(/^https?:\/\//, ""),
    newsletter: sections.newsletter.shown
      ? ctx.customization?.newsletterEmbedCode?.trim()
        ? "provider"
        : "own"
      : null,
    contactForm: w.contactEnabled && (ctx.contact?.enableContactForm ?? true),
    books: sections.books.shown,
  };
}

/** The site's address as readers type it: its verified own domain, else its subdomain. */
export function siteHostOf(ctx: SiteContext, sitesDomain: string): string {
  if (ctx.website.customDomain && ctx.customDomainVerified) return ctx.website.customDomain;
  return `${ctx.website.subdomain}.${sitesDomain}`;
}

/** The owner's site as readers see it: live or not, and what the menu shows (the dashboard's view). */
export async function getSiteStatus(db: Db, userId: string, now = new Date()): Promise<ReadersStatus | null> {
  const ctx = toContext(await q.selectContextByUser(db, userId), now);
  if (!ctx) return null;
  return {
    visibility: ctx.visibility,
    sections: sectionStates(ctx),
    genreMissing: !ctx.profile.genre.trim(),
    privacyGenerated: !(ctx.legal?.content ?? "").trim(),
  };
}

/** The owner's site context (the same row readers' pages read), e.g. for the generated privacy notice. */
export async function loadOwnSiteContext(db: Db, userId: string, now = new Date()): Promise<SiteContext | null> {
  return toContext(await q.selectContextByUser(db, userId), now);
}

/** A site's address as the caches key it: `s:{subdomain}` or `d:{custom domain}`, lower case. */
export const siteLookupKey = (by: { subdomain: string } | { customDomain: string }) =>
  "subdomain" in by ? `s:${by.subdomain.toLowerCase()}` : `d:${by.customDomain.toLowerCase()}`;

/** The site contexts of sites read lately (runtime.ts keeps one per process). */
export type SiteContexts = SiteContextCache<q.SiteContextRow>;

/**
 * Everything every page of a site needs, in one query, or from `contexts` when the site was read
 * lately (ADR 040).
 */
export async function loadSiteContext(
  db: Db,
  by: { subdomain: string } | { customDomain: string },
  contexts?: SiteContexts | null,
  now = new Date(),
): Promise<SiteContext | null> {
  const key = siteLookupKey(by);
  const kept = contexts?.get(key);
  if (kept) return toContext(kept, now);
  const keep = contexts?.reading(key);
  const row =
    "subdomain" in by
      ? await q.selectContextBySubdomain(db, by.subdomain)
      : await q.selectContextByCustomDomain(db, by.customDomain);
  if (row) keep?.(row.website.userId, row);
  return toContext(row, now);
}

export type BookCard = Awaited<ReturnType<typeof q.selectVisibleBooks>>[number];
export type BookDetail = NonNullable<Awaited<ReturnType<typeof q.selectVisibleBook>>>;
/** One of a book's stores as its page reads it; `id` is the {link} of /book/{id}/buy/{link}. */
export type BookStore = q.RetailerRow;
export type PostView = Awaited<ReturnType<typeof q.selectPosts>>[number];

/** The books readers see: visible ones, by position, no more than the plan allows. */
export const listVisibleBooks = (db: Db, userId: string, limit: number) => q.selectVisibleBooks(db, userId, limit);

/**
 * A book readers may see by the address in `/book/{address}`: its slug, an earlier slug of it, or
 * its id (ADR 051). Null when unknown, hidden, another author's, or beyond the plan's limit; the
 * book's `slug` differs from `address` when the caller should redirect to it.
 */
export async function getVisibleBook(
  db: Db,
  userId: string,
  address: string,
  limit: number,
): Promise<BookDetail | null> {
  const id = isUuid(address) ? address.toLowerCase() : null;
  const slug = SLUG_PATTERN.test(address) && address.length <= 100 ? address : null;
  if (id === null && slug === null) return null;
  return q.selectVisibleBook(db, userId, slug ?? "", id, limit);
}

export const listPosts = (db: Db, userId: string) => q.selectPosts(db, userId);

export type SitemapEntry = { kind: "book" | "post" | "series"; key: string; updatedAt: Date };

/** A series' address under /series/, from its name; a book page asks it for its series on every render. */
export function seriesSlug(name: string): string {
  let slug = seriesSlugs.get(name);
  if (slug === undefined) {
    slug = slugify(name, "series");
    if (seriesSlugs.size >= 5_000) seriesSlugs.clear();
    seriesSlugs.set(name, slug);
  }
  return slug;
}
const seriesSlugs = new Map<string, string>();

/** Books are in one series when their series names match, case and outer spaces aside. */
const sameSeries = (name: string) => name.trim().toLowerCase();

/**
 * The series at this address among the books readers see: its name as the author wrote it on
 * its first book, and its books in reading order (number in the series; unnumbered ones last,
 * by position). Null when no visible book names a series with this address.
 */
export function findSeries<
  B extends { seriesName: string | null; orderInSeries: number | null; seriesDescription: string | null },
>(visible: readonly B[], slug: string): { name: string; description: string | null; books: B[] } | null {
  const named = visible.find((b) => b.seriesName?.trim() && seriesSlug(b.seriesName) === slug)?.seriesName;
  if (!named) return null;
  const name = named.trim();
  const books = visible.filter((b) => b.seriesName && sameSeries(b.seriesName) === sameSeries(name));
  // A stable sort: books with the same number (or none) keep the site's order.
  books.sort((a, b) => (a.orderInSeries ?? Number.MAX_SAFE_INTEGER) - (b.orderInSeries ?? Number.MAX_SAFE_INTEGER));
  return { name, description: books[0]?.seriesDescription ?? null, books };
}

/**
 * A series page's books (as listVisibleBooks) and, when `slug` is an earlier address of a series
 * renamed since, that series' current address (else null).
 */
export async function seriesBooks(db: Db, userId: string, limit: number, slug: string) {
  const { books, renamedTo } = await q.selectSeriesBooks(db, userId, limit, slug);
  return { books, movedTo: renamedTo === null ? null : seriesSlug(renamedTo) };
}

/** The sitemap's books (visible, within the plan) and posts, each only when its page is on. */
export async function sitemapEntries(
  db: Db,
  userId: string,
  on: { books: boolean; posts: boolean; bookLimit: number },
): Promise<SitemapEntry[]> {
  const rows = await q.selectSitemapEntries(db, userId, on.books ? on.bookLimit : 0, on.posts ? 1000 : 0);
  // A union's rows come back as the driver reads them: timestamps may arrive as text.
  const entries: SitemapEntry[] = rows.map((r) => ({ kind: r.kind, key: r.key, updatedAt: new Date(r.updatedAt) }));
  // A series' page changes when any of its books does.
  const series = new Map<string, Date>();
  for (const r of rows) {
    if (r.kind !== "book" || !r.series?.trim()) continue;
    const slug = seriesSlug(r.series);
    const at = new Date(r.updatedAt);
    const seen = series.get(slug);
    if (!seen || seen < at) series.set(slug, at);
  }
  for (const [key, updatedAt] of series) entries.push({ kind: "series", key, updatedAt });
  return entries;
}

/** A post by its address: the post, where it moved to, or null. Addresses are checked first. */
export function findPost(db: Db, userId: string, slug: string) {
  return SLUG_PATTERN.test(slug) && slug.length <= 100 ? q.selectPostBySlug(db, userId, slug) : Promise.resolve(null);
}

/** Subdomains of up to `limit` sites, changed last first, for warming the renderer at start-up. */
export const subdomainsToWarm = (db: Db, limit: number) => q.selectSubdomainsToWarm(db, limit);

/** Owners (user ids) of sites changed since `since`, for dropping their cached pages. */
export const sitesChangedSince = (db: Db, since: Date) => q.selectSitesChangedSince(db, since);
