// The custom-domain rows: an author's one claim (domain_verifications) and, once verified, the
// website's custom_domain.
import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { domainVerifications, subscriptions, websites } from "../../../db/schema/index.ts";

type Conn = Db | Tx;
export type DomainRow = typeof domainVerifications.$inferSelect;

export async function selectWebsite(db: Conn, userId: string) {
  const [row] = await db
    .select({ subdomain: websites.subdomain, customDomain: websites.customDomain })
    .from(websites)
    .where(eq(websites.userId, userId));
  return row ?? null;
}

/** The author's claim: the newest row (there is one; older ones are removed on a new claim). */
export async function selectClaim(db: Conn, userId: string): Promise<DomainRow | null> {
  const [row] = await db
    .select()
    .from(domainVerifications)
    .where(eq(domainVerifications.userId, userId))
    .orderBy(sql`${domainVerifications.createdAt} desc`)
    .limit(1);
  return row ?? null;
}

/** Whether another author has this domain verified (or as their site's address). */
export async function domainHeldByOther(db: Conn, userId: string, domain: string): Promise<boolean> {
  const [claim] = await db
    .select({ id: domainVerifications.id })
    .from(domainVerifications)
    .where(
      and(
        eq(sql`lower(${domainVerifications.domain})`, domain),
        eq(domainVerifications.verified, true),
        ne(domainVerifications.userId, userId),
      ),
    )
    .limit(1);
  if (claim) return true;
  const [site] = await db
    .select({ id: websites.id })
    .from(websites)
    .where(and(eq(sql`lower(${websites.customDomain})`, domain), ne(websites.userId, userId)))
    .limit(1);
  return Boolean(site);
}

export async function replaceClaim(tx: Tx, userId: string, domain: string, token: string): Promise<void> {
  await tx.delete(domainVerifications).where(eq(domainVerifications.userId, userId));
  await tx.insert(domainVerifications).values({ userId, domain, verificationToken: token });
}

export async function deleteClaims(tx: Tx, userId: string): Promise<void> {
  await tx.delete(domainVerifications).where(eq(domainVerifications.userId, userId));
}

export async function setSiteDomain(tx: Tx, userId: string, domain: string | null): Promise<void> {
  await tx
    .update(websites)
    .set({ customDomain: domain, domainOption: domain ? "custom" : "free", updatedAt: new Date() })
    .where(eq(websites.userId, userId));
}

export async function recordCheck(
  db: Conn,
  id: string,
  check: { at: Date; problem: string | null; message: string; verified?: boolean },
): Promise<void> {
  await db
    .update(domainVerifications)
    .set({
      lastCheckedAt: check.at,
      lastProblem: check.problem,
      lastMessage: check.message,
      ...(check.verified === undefined
        ? {}
        : { verified: check.verified, verifiedAt: check.verified ? check.at : null }),
      updatedAt: check.at,
    })
    .where(eq(domainVerifications.id, id));
}

/**
 * Takes the claims that are due a check — pending ones younger than `pendingSince` not checked
 * since `pendingBefore`, verified ones not checked since `verifiedBefore` — by stamping them
 * checked now. The update is atomic per row, so two processes never take the same claim, and no
 * lock is held while DNS answers.
 */
export function takeDueClaims(db: Conn, now: Date, pendingSince: Date, pendingBefore: Date, verifiedBefore: Date) {
  const due = db
    .select({ id: domainVerifications.id })
    .from(domainVerifications)
    .where(
      or(
        and(
          eq(domainVerifications.verified, false),
          gt(domainVerifications.createdAt, pendingSince),
          or(isNull(domainVerifications.lastCheckedAt), lt(domainVerifications.lastCheckedAt, pendingBefore)),
        ),
        and(
          eq(domainVerifications.verified, true),
          or(isNull(domainVerifications.lastCheckedAt), lt(domainVerifications.lastCheckedAt, verifiedBefore)),
        ),
      ),
    )
    .limit(200);
  return db
    .update(domainVerifications)
    .set({ lastCheckedAt: now })
    .where(
      and(
        inArray(domainVerifications.id, due),
        or(
          isNull(domainVerifications.lastCheckedAt),
          lt(
            domainVerifications.lastCheckedAt,
            sql`case when ${domainVerifications.verified} then ${verifiedBefore}::timestamptz else ${pendingBefore}::timestamptz end`,
          ),
        ),
      ),
    )
    .returning();
}

/** Whether a site's subscription lets it be served (for the TLS terminator's question). */
export async function selectServedBySubdomain(db: Conn, subdomain: string) {
  const [row] = await db
    .select({ status: subscriptions.status, periodEnd: subscriptions.currentPeriodEnd })
    .from(websites)
    .leftJoin(subscriptions, eq(subscriptions.userId, websites.userId))
    .where(eq(sql`lower(${websites.subdomain})`, subdomain));
  return row ?? null;
}

export async function selectServedByDomain(db: Conn, domain: string) {
  const [row] = await db
    .select({ status: subscriptions.status, periodEnd: subscriptions.currentPeriodEnd })
    .from(websites)
    .innerJoin(
      domainVerifications,
      and(
        eq(domainVerifications.userId, websites.userId),
        eq(sql`lower(${domainVerifications.domain})`, sql`lower(${websites.customDomain})`),
        eq(domainVerifications.verified, true),
      ),
    )
    .leftJoin(subscriptions, eq(subscriptions.userId, websites.userId))
    .where(eq(sql`lower(${websites.customDomain})`, domain));
  return row ?? null;
}
