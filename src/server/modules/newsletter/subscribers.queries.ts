// The author's mailing list as the Subscribers screen reads and changes it: every query takes the
// owner's id.
import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { deleteOwned } from "../../lib/owned-rows.ts";
import { subscriberFields } from "../../lib/select-shapes.ts";

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
    .select({ id: s.id, ...subscriberFields })
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

export function deleteSubscriberById(db: Db, userId: string, id: string): Promise<boolean> {
  return deleteOwned(db, s, userId, id);
}

export type ImportedRow = { email: string; confirmToken: string };

/**
 * Adds confirmed, imported subscribers; an address already on the list in any status (its
 * unique index is on the lower-cased address) is left as it is. Returns how many were added.
 * One statement over two arrays (unnest), however many rows: far quicker than a VALUES list.
 */
export async function insertImported(tx: Tx, userId: string, rows: ImportedRow[], now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const emails = sql.param(rows.map((r) => r.email));
  const tokens = sql.param(rows.map((r) => r.confirmToken));
  const at = now.toISOString();
  const added = await tx.execute(sql`
    insert into ${s} (user_id, email, status, confirm_token, confirmed_at, imported_at, created_at)
    select ${userId}, x.email, 'confirmed', x.token, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
    from unnest(${emails}::text[], ${tokens}::text[]) as x(email, token)
    on conflict do nothing
    returning id`);
  // Both drivers (PGlite, node-postgres) answer with `rows`.
  return (added as unknown as { rows: unknown[] }).rows.length;
}
