// Count rows written in batches (ADR 007, 076): an array per column through `unnest`, so a
// statement's text is the same however many rows it carries, a bounded number of rows at a time.
import { getTableName, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client.ts";

/** Rows per statement: on the embedded database a statement holds the event loop while it runs. */
export const ROWS_PER_STATEMENT = 500;

/** One column of a batch of rows: the table's column, its SQL type, and its value in each row. */
export type Column = { column: PgColumn; type: "uuid" | "date" | "text" | "integer"; values: (string | number)[] };

export const column = (c: PgColumn, type: Column["type"], values: (string | number)[]): Column => ({
  column: c,
  type,
  values,
});

/**
 * `insert into <table> (<columns>) select * from unnest($1::<type>[], …)` for rows [from, to):
 * an array per column, so the statement's text is the same however many rows it carries. Each
 * database then keeps it prepared (planned once), and no placeholder is built, sent or parsed
 * per value, as a VALUES list of a few thousand would be on every write (ADR 076).
 */
export function insertRows(table: PgTable, columns: Column[], from: number, to: number): SQL {
  const names = sql.join(
    columns.map((c) => sql.identifier(c.column.name)),
    sql`, `,
  );
  const arrays = sql.join(
    columns.map((c) => sql`${sql.param(c.values.slice(from, to))}::${sql.raw(c.type)}[]`),
    sql`, `,
  );
  return sql`insert into ${table} (${names}) select * from unnest(${arrays})`;
}

/**
 * Adds the rows' `counts` to the stored rows with the same `key` (a day's figures), a chunk at a
 * time; a key not stored yet starts from the row's counts.
 */
export async function addCounts(
  db: Db,
  table: PgTable,
  columns: Column[],
  key: PgColumn[],
  counts: PgColumn[],
  rowsPerStatement: number,
): Promise<void> {
  const name = sql.identifier(getTableName(table));
  const target = sql.join(
    key.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const set = sql.join(
    counts.map((c) => {
      const col = sql.identifier(c.name);
      return sql`${col} = ${name}.${col} + excluded.${col}`;
    }),
    sql`, `,
  );
  await inChunks(columns[0]?.values.length ?? 0, rowsPerStatement, async (from, to) => {
    await db.execute(sql`${insertRows(table, columns, from, to)} on conflict (${target}) do update set ${set}`);
  });
}

/**
 * Runs `write` on rows [from, to) of `count`, a bounded number at a time: on the embedded
 * database a statement runs on the event loop, and between two statements requests are answered.
 */
export async function inChunks(
  count: number,
  size: number,
  write: (from: number, to: number) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < count; i += size) {
    if (i > 0) await new Promise<void>((ok) => setImmediate(ok));
    await write(i, Math.min(i + size, count));
  }
}
