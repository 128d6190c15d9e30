// The author's mailing list as the Subscribers screen reads and changes it: every query takes the
// owner's id.
import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { newsletterSubscribers } from "../../../db/schema/index.ts";

const s = newsletterSubscribers;

export type ListFilter = { q?: string | undefined; status?: string | undefined };

function whereOf(userId: string, f: ListFilter): SQL | undefined {
  return and(
    eq(s.userId, userId),
    f.status ? eq(s.status, f.status) : undefined,
    // A plain substring of the address: strpos has no wildcards to escape.
    f.q ? sql`strpos(lower(${s.email}), ${f.q.toLowerCase()}) > 0` : undefined,
  );
}

export function selectSubscriberPage(db: Db, userId: string, f: ListFilter, limit: number, offset: number) {
  return db
    .select({
      id: s.id,
      email: s.email,
      status: s.status,
      createdAt: s.createdAt,
      confirmedAt: s.confirmedAt,
      signupPage: s.signupPage,
      importedAt: s.importedAt,
    })
    .from(s)
    .where(whereOf(userId, f))
    .orderBy(desc(s.createdAt), desc(s.id))
    .limit(limit)
    .offset(offset);
}

export async function countSubscribers(db: Db, userId: string, f: ListFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(s).where(whereOf(userId, f));
  return row?.n ?? 0;
}

export function countByStatus(db: Db, userId: string) {
  return db.select({ status: s.status, n: count() }).from(s).where(eq(s.userId, userId)).groupBy(s.status);
}

export async function deleteSubscriberById(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(s)
    .where(and(eq(s.userId, userId), eq(s.id, id)))
    .returning({ id: s.id });
  return rows.length > 0;
}

export type ImportedRow = { email: string; confirmToken: string };

/**
 * Adds confirmed, imported subscribers; an address already on the list in any status (its
 * unique index is on the lower-cased address) is left as it is. Returns how many were added.
 */
export async function insertImported(tx: Tx, userId: string, rows: ImportedRow[], now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await tx
    .insert(s)
    .values(
      rows.map((r) => ({
        userId,
        email: r.email,
        status: "confirmed",
        confirmToken: r.confirmToken,
        confirmedAt: now,
        importedAt: now,
        createdAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: s.id });
  return added.length;
}
