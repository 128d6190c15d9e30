// Everything stored about one account, for its export and its deletion. Every query is by the
// account's own id (or its own email address, for the rows keyed by address).
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import {
  accountMailQuota,
  adminAuditLog,
  blogPostSlugs,
  blogPosts,
  bookGenres,
  bookSeries,
  bookSeriesSlugs,
  bookSlugs,
  books,
  contactMessages,
  contactSettings,
  domainVerifications,
  legalPages,
  mailOutbox,
  newsletterSubscribers,
  newsletters,
  profiles,
  retailerLinks,
  reviews,
  signInFailures,
  subscriptions,
  supportTickets,
  user,
  verification,
  websiteCustomization,
  websites,
} from "../../../db/schema/index.ts";
import { subscriberFields } from "../../lib/select-shapes.ts";

/** The account's rows, table by table (secrets such as token hashes are dropped by the service). */
export async function selectAccountData(db: Db, userId: string) {
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0] ?? null;
  const bookRows = await db.select().from(books).where(eq(books.userId, userId)).orderBy(asc(books.sortOrder));
  const bookIds = bookRows.map((b) => b.id);
  const byBook =
    <T extends { bookId: string }>(rows: T[]) =>
    (id: string) =>
      rows.filter((r) => r.bookId === id);
  const [links, genres, bookReviews] = bookIds.length
    ? await Promise.all([
        db
          .select()
          .from(retailerLinks)
          .where(inArray(retailerLinks.bookId, bookIds))
          .orderBy(asc(retailerLinks.sortOrder)),
        db.select().from(bookGenres).where(inArray(bookGenres.bookId, bookIds)).orderBy(asc(bookGenres.position)),
        db.select().from(reviews).where(inArray(reviews.bookId, bookIds)).orderBy(asc(reviews.createdAt)),
      ])
    : [[], [], []];
  const linksOf = byBook(links);
  const genresOf = byBook(genres);
  const reviewsOf = byBook(bookReviews);
  return {
    account: await one(
      db
        .select({
          id: user.id,
          name: user.name,
          email: user.email,
          emailVerified: user.emailVerified,
          createdAt: user.createdAt,
        })
        .from(user)
        .where(eq(user.id, userId)),
    ),
    profile: await one(db.select().from(profiles).where(eq(profiles.id, userId))),
    website: await one(db.select().from(websites).where(eq(websites.userId, userId))),
    customization: await one(db.select().from(websiteCustomization).where(eq(websiteCustomization.userId, userId))),
    contactSettings: await one(db.select().from(contactSettings).where(eq(contactSettings.userId, userId))),
    legalPages: await db.select().from(legalPages).where(eq(legalPages.userId, userId)),
    subscription: await one(db.select().from(subscriptions).where(eq(subscriptions.userId, userId))),
    domains: await db.select().from(domainVerifications).where(eq(domainVerifications.userId, userId)),
    books: bookRows.map((b) => ({
      ...b,
      retailerLinks: linksOf(b.id),
      genres: genresOf(b.id).map((g) => g.genreName),
      reviews: reviewsOf(b.id),
    })),
    series: await db.select().from(bookSeries).where(eq(bookSeries.userId, userId)).orderBy(asc(bookSeries.name)),
    posts: await db.select().from(blogPosts).where(eq(blogPosts.userId, userId)).orderBy(asc(blogPosts.createdAt)),
    seriesOldAddresses: await db.select().from(bookSeriesSlugs).where(eq(bookSeriesSlugs.userId, userId)),
    postOldAddresses: await db.select().from(blogPostSlugs).where(eq(blogPostSlugs.userId, userId)),
    bookOldAddresses: await db.select().from(bookSlugs).where(eq(bookSlugs.userId, userId)),
    newsletterSubscribers: await db
      .select(subscriberFields)
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.userId, userId))
      .orderBy(asc(newsletterSubscribers.createdAt)),
    // Not a sent newsletter the author deleted: hidden and blanked, it is no longer theirs to see (ADR 069).
    newsletters: await db
      .select()
      .from(newsletters)
      .where(and(eq(newsletters.userId, userId), isNull(newsletters.deletedAt)))
      .orderBy(asc(newsletters.createdAt)),
    contactMessages: await db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.userId, userId))
      .orderBy(asc(contactMessages.createdAt)),
  };
}

export async function selectAccount(db: Db, userId: string) {
  const [row] = await db
    .select({ id: user.id, email: user.email, subdomain: websites.subdomain })
    .from(user)
    .leftJoin(websites, eq(websites.userId, user.id))
    .where(eq(user.id, userId));
  return row ?? null;
}

export async function selectSubscription(db: Db, userId: string) {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row ?? null;
}

/**
 * Removes the account and everything that names it. Its own rows go with the user row (foreign
 * keys cascade); these are the rows that are keyed by its address or kept for others: its support
 * tickets, mail and sign-in bookkeeping; staff's audit entries about it lose the address.
 */
export async function deleteAccountRows(tx: Tx, userId: string, email: string): Promise<boolean> {
  const address = email.toLowerCase();
  await tx
    .delete(supportTickets)
    .where(or(eq(supportTickets.userId, userId), eq(sql`lower(${supportTickets.email})`, address)));
  await tx.update(adminAuditLog).set({ target: "(deleted account)" }).where(eq(adminAuditLog.targetUserId, userId));
  await tx
    .delete(verification)
    .where(or(eq(sql`lower(${verification.identifier})`, address), eq(verification.value, userId)));
  await tx.delete(signInFailures).where(eq(sql`lower(${signInFailures.email})`, address));
  await tx.delete(accountMailQuota).where(eq(sql`lower(${accountMailQuota.email})`, address));
  await tx.delete(mailOutbox).where(eq(sql`lower(${mailOutbox.to})`, address));
  const gone = await tx.delete(user).where(eq(user.id, userId)).returning({ id: user.id });
  return gone.length > 0;
}
