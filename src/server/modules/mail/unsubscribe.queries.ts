// Unsubscribing a reader from one author's list (ADR 065): the newsletter, or the release alerts.
// Every query takes the site owner's id with the subscriber's, so one site's link reaches no other.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { newsletterSubscribers, releaseAlerts } from "../../../db/schema/index.ts";

/** The newsletter subscriber is unsubscribed; false when the author has no such subscriber. */
export async function unsubscribeNewsletter(db: Db, userId: string, subscriberId: string): Promise<boolean> {
  const rows = await db
    .update(newsletterSubscribers)
    .set({ status: "unsubscribed" })
    .where(and(eq(newsletterSubscribers.userId, userId), eq(newsletterSubscribers.id, subscriberId)))
    .returning({ id: newsletterSubscribers.id });
  return rows.length > 0;
}

/**
 * Every release alert of that reader's address on this author's site is unsubscribed (not only
 * the one book's: the reader asked this author to stop); false when the alert is not the author's.
 */
export async function unsubscribeAlerts(db: Db, userId: string, alertId: string): Promise<boolean> {
  const rows = await db
    .update(releaseAlerts)
    // A bounced address stays bounced (ADR 073): unsubscribing and signing up again must not revive it.
    .set({ status: sql`case when ${releaseAlerts.status} = 'bounced' then 'bounced' else 'unsubscribed' end` })
    .where(
      and(
        eq(releaseAlerts.userId, userId),
        sql`lower(${releaseAlerts.email}) = (select lower(r.email) from release_alerts r where r.id = ${alertId} and r.user_id = ${userId})`,
      ),
    )
    .returning({ id: releaseAlerts.id });
  return rows.length > 0;
}
