// A site's newsletter subscribers, as the public sign-up form and its confirmation link write them.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { newsletterSubscribers } from "../../../db/schema/index.ts";

export type SubscriberRow = { status: string; confirmToken: string };

export async function selectSubscriber(db: Db, userId: string, email: string): Promise<SubscriberRow | null> {
  const [row] = await db
    .select({ status: newsletterSubscribers.status, confirmToken: newsletterSubscribers.confirmToken })
    .from(newsletterSubscribers)
    .where(and(eq(newsletterSubscribers.userId, userId), eq(sql`lower(${newsletterSubscribers.email})`, email)));
  return row ?? null;
}

/** A concurrent sign-up of the same address inserts nothing: null. */
export async function insertPendingSubscriber(
  db: Db,
  userId: string,
  email: string,
  confirmToken: string,
  signupPage: string | null,
): Promise<SubscriberRow | null> {
  const [row] = await db
    .insert(newsletterSubscribers)
    .values({ userId, email, status: "pending", confirmToken, signupPage })
    .onConflictDoNothing()
    .returning({ status: newsletterSubscribers.status, confirmToken: newsletterSubscribers.confirmToken });
  return row ?? null;
}

/** An unsubscribed reader signing up again starts over with a fresh token. */
export async function resetSubscriberToPending(
  db: Db,
  userId: string,
  email: string,
  confirmToken: string,
  signupPage: string | null,
) {
  await db
    .update(newsletterSubscribers)
    .set({ status: "pending", confirmToken, confirmedAt: null, signupPage, importedAt: null })
    .where(
      and(
        eq(newsletterSubscribers.userId, userId),
        eq(sql`lower(${newsletterSubscribers.email})`, email),
        eq(newsletterSubscribers.status, "unsubscribed"),
      ),
    );
}

/** Confirms the subscriber holding this token on this site; false for an unknown token. */
export async function confirmSubscriberByToken(db: Db, userId: string, token: string): Promise<boolean> {
  const rows = await db
    .update(newsletterSubscribers)
    .set({
      status: "confirmed",
      confirmedAt: sql`coalesce(${newsletterSubscribers.confirmedAt}, now())`,
    })
    .where(
      and(
        eq(newsletterSubscribers.userId, userId),
        eq(newsletterSubscribers.confirmToken, token),
        sql`${newsletterSubscribers.status} in ('pending', 'confirmed')`,
      ),
    )
    .returning({ id: newsletterSubscribers.id });
  return rows.length > 0;
}
