// One author's row of a tenant table, found by its id and the owner's: the insert, read, change
// and delete every module does the same way. A row of another author's is simply not there (null,
// false), so a module turns that into its own "not found". And a table with one row per author
// (a settings record), written whether or not the row exists yet.
import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../../db/client.ts";

type Conn = Db | Tx;

/** A tenant table: rows with an id that belong to one author. */
export type OwnedTable = PgTable & { id: PgColumn; userId: PgColumn };
/** One whose rows keep when they last changed. */
type DatedTable = OwnedTable & { updatedAt: PgColumn };

/** The row `id` of the author `userId`, and anything else the caller adds. */
export const ownRow = (table: OwnedTable, userId: string, id: string, ...more: (SQL | undefined)[]) =>
  and(eq(table.userId, userId), eq(table.id, id), ...more);

export async function selectOwned<T extends OwnedTable>(
  db: Conn,
  table: T,
  userId: string,
  id: string,
): Promise<T["$inferSelect"] | null> {
  const [row] = await db
    .select()
    .from(table as OwnedTable)
    .where(ownRow(table, userId, id));
  return (row as T["$inferSelect"] | undefined) ?? null;
}

/** The author's new row of `table`. */
export async function insertOwned<T extends OwnedTable>(
  db: Conn,
  table: T,
  userId: string,
  values: Omit<PgInsertValue<T>, "userId">,
): Promise<T["$inferSelect"]> {
  const [row] = await db
    .insert(table as OwnedTable)
    .values({ userId, ...values } as PgInsertValue<OwnedTable>)
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row as T["$inferSelect"];
}

/** The changed row, its `updatedAt` now; null when it is not this author's (or `more` fails). */
export async function updateOwned<T extends DatedTable>(
  db: Conn,
  table: T,
  userId: string,
  id: string,
  values: PgUpdateSetSource<T>,
  ...more: (SQL | undefined)[]
): Promise<T["$inferSelect"] | null> {
  const [row] = await db
    .update(table as DatedTable)
    .set({ ...values, updatedAt: new Date() } as PgUpdateSetSource<DatedTable>)
    .where(ownRow(table, userId, id, ...more))
    .returning();
  return (row as T["$inferSelect"] | undefined) ?? null;
}

/** Whether a row went; false when it is not this author's. */
export async function deleteOwned(db: Conn, table: OwnedTable, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(table)
    .where(ownRow(table, userId, id))
    .returning({ id: table.id });
  return rows.length > 0;
}

/** A table with at most one row per author (settings), unique on `userId`. */
type AuthorRowTable = PgTable & { userId: PgColumn; updatedAt: PgColumn };

/** Writes `values` to the author's one row of `table`, made if there is none yet; `updatedAt` now. */
export async function saveAuthorRow<T extends AuthorRowTable>(
  db: Conn,
  table: T,
  userId: string,
  values: Omit<PgInsertValue<T>, "userId">,
): Promise<void> {
  await db
    .insert(table as AuthorRowTable)
    .values({ userId, ...values } as PgInsertValue<AuthorRowTable>)
    .onConflictDoUpdate({
      target: table.userId,
      set: { ...values, updatedAt: new Date() } as PgUpdateSetSource<AuthorRowTable>,
    });
}
