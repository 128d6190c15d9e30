// Statements prepared once per database handle, for the busy paths whose SQL Drizzle would
// otherwise assemble, plan or map afresh on every run. Both go through Drizzle's own session
// (`prepareQuery`, what `.prepare(name)` calls), so its driver handling and logging still apply;
// this file is the one place that reaches into it.
//
// - `preparedSql`: a hand-written statement, its SQL assembled once (values are
//   `sql.placeholder`s filled in on each run); on PostgreSQL a named statement, parsed and
//   planned once per connection instead of on every run (PGlite keeps every statement named
//   already, pglite-statements.ts). For statements whose planning costs more than running them
//   (ADR 079).
// - `prepareFlat`: a select with its rows made into objects by a mapper built once. Drizzle's own
//   mapping walks each column's path with an iterator and destructured entries, per cell and per
//   call: for the dashboard's book list that was a third of everything the request allocated
//   (ADR 082), and the collections it fed were the event loop's longest stops. Same SQL, same
//   decoders, same values.
import { Column, is, SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";

const dialect = new PgDialect();

type Built = { sql: string; params: unknown[] };
type Prepared<Result> = { execute(values: Record<string, unknown>): Promise<Result> };

/** Drizzle's session prepares `built` under `name`: rows as arrays through `map`, or as the driver answers them. */
function prepareNamed<Result>(db: Db, built: Built, name: string, map?: (rows: unknown[][]) => unknown) {
  return db._.session.prepareQuery(built, undefined, name, map !== undefined, map) as unknown as Prepared<Result>;
}

/** `run(db, values)` runs `query` with its placeholders filled from `values`; its rows. */
export function preparedSql<Row>(name: string, query: SQL) {
  const built = dialect.sqlToQuery(query);
  const byDb = new WeakMap<Db, Prepared<{ rows: Row[] }>>();
  const run = async (db: Db, values: Record<string, unknown>): Promise<Row[]> => {
    let statement = byDb.get(db);
    if (!statement) {
      statement = prepareNamed<{ rows: Row[] }>(db, built, name);
      byDb.set(db, statement);
    }
    return (await statement.execute(values)).rows;
  };
  /** The statement's text with `values` written in as literals (to EXPLAIN it in a test). */
  run.withValues = (values: Record<string, string>) =>
    built.sql.replace(/\$(\d+)/g, (_, i: string) => {
      const value = values[(built.params[Number(i) - 1] as { name: string }).name];
      if (value === undefined) throw new Error(`no value for $${i}`);
      return `'${value.replaceAll("'", "''")}'`;
    });
  return run;
}

type Field = Column | SQL | SQL.Aliased;
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** What a field's driver value becomes, as Drizzle decodes it (a plain `sql` keeps the value). */
function decoderOf(field: Field): Decoder {
  if (is(field, Column)) return field;
  const s = is(field, SQL) ? field : (field as SQL.Aliased).sql;
  return (s as unknown as { decoder: Decoder }).decoder;
}

/**
 * Prepares `query` (a select of exactly `fields`, in their order, with `sql.placeholder`s) under
 * `name`; `execute(values)` answers its rows as plain objects keyed like `fields`.
 */
export function prepareFlat<Row>(
  db: Db,
  name: string,
  fields: Record<string, Field>,
  query: { toSQL(): { sql: string; params: unknown[] } },
) {
  const keys = Object.keys(fields);
  const decoders = Object.values(fields).map(decoderOf);
  const n = keys.length;
  const map = (rows: unknown[][]) =>
    rows.map((raw) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const value = raw[i];
        row[keys[i] as string] =
          value === null || value === undefined ? null : (decoders[i] as Decoder).mapFromDriverValue(value);
      }
      return row as Row;
    });
  const prepared = prepareNamed<Row[]>(db, query.toSQL(), name, map);
  return { execute: (values: Record<string, unknown>): Promise<Row[]> => prepared.execute(values) };
}
