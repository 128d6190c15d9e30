// Finding the website a public request is for, and what its public pages show.
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { domainVerifications, profiles, websites } from "../../../db/schema/index.ts";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "../../../shared/enums.ts";
import { bookLimit, isTier } from "../../../shared/plans.ts";
import * as q from "./sites.queries.ts";

export type SiteSummary = { userId: string; websiteName: string; subdomain: string | null; authorName: string };

const summary = {
  userId: websites.userId,
  websiteName: websites.websiteName,
  subdomain: websites.subdomain,
  authorName: profiles.name,
};

export async function findSiteBySubdomain(db: Db, subdomain: string): Promise<SiteSummary | null> {
  const [row] = await db
    .select(summary)
    .from(websites)
    .innerJoin(profiles, eq(profiles.id, websites.userId))
    .where(eq(sql`lower(${websites.subdomain})`, subdomain.toLowerCase()));
  return row ?? null;
}

/** A custom domain serves a site only once its owner has verified it. */
export async function findSiteByCustomDomain(db: Db, domain: string): Promise<SiteSummary | null> {
  const [row] = await db
    .select(summary)
    .from(websites)
    .innerJoin(profiles, eq(profiles.id, websites.userId))
    .innerJoin(
      domainVerifications,
      and(
        eq(domainVerifications.userId, websites.userId),
        eq(sql`lower(${domainVerifications.domain})`, sql`lower(${websites.customDomain})`),
        eq(domainVerifications.verified, true),
      ),
    )
    .where(eq(sql`lower(${websites.customDomain})`, domain.toLowerCase()));
  return row ?? null;
}

// ---- The public site renderer's view of the data (src/sites/ calls only these). ----

export type SiteContext = Omit<q.SiteContextRow, "subscriptionStatus"> & {
  subscriptionStatus: SubscriptionStatus;
  /** How many books readers may see: the owner's plan's limit (no subscription: mini). */
  bookLimit: number;
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
  return {
    ...row,
    subscriptionStatus: status,
    bookLimit: bookLimit(isTier(row.subscriptionTier) ? row.subscriptionTier : "mini"),
  };
}

/** Everything every page of a site needs, in one query. */
export async function loadSiteContext(
  db: Db,
  by: { subdomain: string } | { customDomain: string },
  now = new Date(),
): Promise<SiteContext | null> {
  return toContext(
    "subdomain" in by
      ? await q.selectContextBySubdomain(db, by.subdomain)
      : await q.selectContextByCustomDomain(db, by.customDomain),
    now,
  );
}

export type BookCard = Awaited<ReturnType<typeof q.selectVisibleBooks>>[number];
export type BookDetail = NonNullable<Awaited<ReturnType<typeof q.selectVisibleBook>>>;
export type PostView = Awaited<ReturnType<typeof q.selectPosts>>[number];

/** The books readers see: visible ones, by position, no more than the plan allows. */
export const listVisibleBooks = (db: Db, userId: string, limit: number) => q.selectVisibleBooks(db, userId, limit);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A book readers may see, or null (unknown, hidden, another author's, or beyond the plan's limit). */
export async function getVisibleBook(
  db: Db,
  userId: string,
  bookId: string,
  limit: number,
): Promise<BookDetail | null> {
  if (!UUID.test(bookId)) return null;
  return q.selectVisibleBook(db, userId, bookId, limit);
}

export const listPosts = (db: Db, userId: string) => q.selectPosts(db, userId);

export const saveContactMessage = q.insertContactMessage;

const newToken = () => randomBytes(24).toString("base64url");

/**
 * Double opt-in: a new (or previously unsubscribed) address is stored as pending and gets a
 * confirmation token; a pending one keeps its token so the mail can be sent again. Returns the
 * token to mail, or null when the address is already confirmed (nothing to send). The caller
 * answers the same in every case, so the form reveals nothing about who subscribed.
 */
export async function subscribeToNewsletter(
  db: Db,
  userId: string,
  rawEmail: string,
): Promise<{ confirmToken: string } | null> {
  const email = rawEmail.trim().toLowerCase();
  const existing = await q.selectSubscriber(db, userId, email);
  if (existing?.status === "confirmed") return null;
  if (existing?.status === "pending") return { confirmToken: existing.confirmToken };
  const token = newToken();
  if (existing?.status === "unsubscribed") {
    await q.resetSubscriberToPending(db, userId, email, token);
    return { confirmToken: token };
  }
  const inserted = await q.insertPendingSubscriber(db, userId, email, token);
  if (inserted) return { confirmToken: inserted.confirmToken };
  const raced = await q.selectSubscriber(db, userId, email);
  return raced?.status === "pending" ? { confirmToken: raced.confirmToken } : null;
}

/** The reader followed the mailed link of this site's newsletter. */
export async function confirmNewsletterSubscriber(db: Db, userId: string, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return false;
  return q.confirmSubscriberByToken(db, userId, token);
}

/** Owners (user ids) of sites changed since `since`, for dropping their cached pages. */
export const sitesChangedSince = (db: Db, since: Date) => q.selectSitesChangedSince(db, since);
