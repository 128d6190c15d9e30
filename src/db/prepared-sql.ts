// A hand-written statement prepared once per database handle, as Drizzle's query builders do with
// `.prepare(name)`: its SQL is assembled once (values are `sql.placeholder`s filled in on each
// run), and on PostgreSQL it is a named statement, parsed and planned once per connection instead
// of on every run (PGlite keeps every statement named already, pglite-statements.ts). For the
// statements a busy request runs whose planning costs more than running them (ADR 079).
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";

const dialect = new PgDialect();

type Prepared = { execute(values: Record<string, unknown>): Promise<unknown> };

/** `run(db, values)` runs `query` with its placeholders filled from `values`; its rows. */
export function preparedSql<Row>(name: string, query: SQL) {
  const built = dialect.sqlToQuery(query);
  const byDb = new WeakMap<Db, Prepared>();
  const run = async (db: Db, values: Record<string, unknown>): Promise<Row[]> => {
    let statement = byDb.get(db);
    if (!statement) {
      statement = db._.session.prepareQuery(built, undefined, name, false) as Prepared;
      byDb.set(db, statement);
    }
    const res = (await statement.execute(values)) as { rows: Row[] };
    return res.rows;
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
