// The reader magnet's rows (ADR 068): every query takes the owner's id.
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import {
  newsletterSubscribers,
  readerMagnetClaims,
  readerMagnetDays,
  readerMagnets,
} from "../../../db/schema/index.ts";

export type MagnetRow = typeof readerMagnets.$inferSelect;

export async function selectMagnet(db: Db | Tx, userId: string): Promise<MagnetRow | null> {
  const [row] = await db.select().from(readerMagnets).where(eq(readerMagnets.userId, userId));
  return row ?? null;
}

/** Sets the file (a new magnet takes `title`; an existing one keeps its own). */
export async function upsertMagnetFile(
  tx: Tx,
  userId: string,
  file: { title: string; fileName: string; size: number; contentType: string; storageKey: string },
): Promise<MagnetRow> {
  const { title, ...rest } = file;
  const [row] = await tx
    .insert(readerMagnets)
    .values({ userId, title, ...rest })
    .onConflictDoUpdate({ target: readerMagnets.userId, set: { ...rest, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error("reader magnet upsert returned nothing");
  return row;
}

export async function updateMagnetTitle(tx: Tx, userId: string, title: string): Promise<MagnetRow | null> {
  const [row] = await tx
    .update(readerMagnets)
    .set({ title, updatedAt: sql`now()` })
    .where(eq(readerMagnets.userId, userId))
    .returning();
  return row ?? null;
}

export async function deleteMagnet(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx
    .delete(readerMagnets)
    .where(eq(readerMagnets.userId, userId))
    .returning({ userId: readerMagnets.userId });
  return rows.length > 0;
}

/** This site's confirmed subscriber with this id, or holding this confirmation token; null if none. */
export async function selectConfirmedSubscriber(db: Db, userId: string, by: { id: string } | { confirmToken: string }) {
  const [row] = await db
    .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email })
    .from(newsletterSubscribers)
    .where(
      and(
        eq(newsletterSubscribers.userId, userId),
        "id" in by ? eq(newsletterSubscribers.id, by.id) : eq(newsletterSubscribers.confirmToken, by.confirmToken),
        eq(newsletterSubscribers.status, "confirmed"),
      ),
    );
  return row ?? null;
}

/** The reader's claim, made once: true when this call made it (then the welcome mail goes). */
export async function insertClaim(db: Db, userId: string, subscriberId: string): Promise<boolean> {
  const rows = await db
    .insert(readerMagnetClaims)
    .values({ userId, subscriberId })
    .onConflictDoNothing()
    .returning({ subscriberId: readerMagnetClaims.subscriberId });
  return rows.length > 0;
}

/**
 * Counts one download for the reader and the day, unless the reader had `limit` already: one
 * statement each, so two downloads at once cannot both take the last one. False: over the limit.
 */
export async function countDownload(tx: Tx, userId: string, subscriberId: string, limit: number, date: string) {
  const [taken] = await tx
    .insert(readerMagnetClaims)
    .values({ userId, subscriberId, downloads: 1 })
    .onConflictDoUpdate({
      target: [readerMagnetClaims.userId, readerMagnetClaims.subscriberId],
      set: { downloads: sql`${readerMagnetClaims.downloads} + 1` },
      setWhere: lt(readerMagnetClaims.downloads, limit),
    })
    .returning({ downloads: readerMagnetClaims.downloads });
  if (!taken) return false;
  await tx
    .insert(readerMagnetDays)
    .values({ userId, date, downloads: 1 })
    .onConflictDoUpdate({
      target: [readerMagnetDays.userId, readerMagnetDays.date],
      set: { downloads: sql`${readerMagnetDays.downloads} + 1` },
    });
  return true;
}

export async function selectDownloadDays(db: Db, userId: string, since: string) {
  return db
    .select({ date: readerMagnetDays.date, count: readerMagnetDays.downloads })
    .from(readerMagnetDays)
    .where(and(eq(readerMagnetDays.userId, userId), gte(readerMagnetDays.date, since)));
}
