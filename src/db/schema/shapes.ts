// Table shapes several parts of the schema share. Each call makes its own table, with the columns
// and indexes the tables had when written out one by one (`drizzle-kit generate` finds no change).
import { type AnyPgColumn, index, type PgColumnBuilderBase, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { createdAt, day, parentText, parentUuid } from "./util.ts";

type ParentKey = ReturnType<typeof parentUuid<string>>;

/**
 * A renamed thing's earlier addresses (ADR 051): an old `/book/{slug}`, `/series/{slug}` or
 * `/blog/{slug}` answers 301 to the current one. An old slug stays reserved for that thing (unique
 * per author) and goes when the thing is deleted. `key` is the column naming the thing.
 */
export function slugHistory<T extends string, K extends string>(
  table: T,
  key: K,
  column: string,
  thing: () => AnyPgColumn,
) {
  const ofThing = { [key]: parentUuid(column, thing) } as Record<K, ParentKey>;
  return pgTable(
    table,
    { userId: parentText("user_id", () => user.id), slug: text("slug").notNull(), ...ofThing, createdAt: createdAt() },
    (t) => [
      uniqueIndex(`${table}_user_slug_idx`).on(t.userId, t.slug),
      index(`${table}_${column.replace(/_id$/, "")}_idx`).on((t as unknown as Record<K, AnyPgColumn>)[key]),
    ],
  );
}

/**
 * Tables of one row per parent row, UTC day and key (a page's path, a store, a reader's hash),
 * unique on the three: figures per day, or who was already counted that day (ADR 032). `parent`
 * makes the parent's key column; `short` names the parent in the unique index,
 * `{table}_{short}_date_{key}_idx`.
 */
export function perDayTables<P extends string>(short: string, parent: () => Record<P, ParentKey>) {
  return <
    T extends string,
    K extends string,
    KeyColumn extends PgColumnBuilderBase,
    Figures extends Record<string, PgColumnBuilderBase>,
  >(
    table: T,
    key: Record<K, KeyColumn>,
    figures: Figures,
  ) => {
    const parentKey = parent();
    const parentName = Object.keys(parentKey)[0] as P;
    const keyName = Object.keys(key)[0] as K;
    return pgTable(table, { ...parentKey, date: day(), ...key, ...figures }, (t) => {
      const c = t as unknown as Record<P | K | "date", AnyPgColumn>;
      return [uniqueIndex(`${table}_${short}_date_${keyName}_idx`).on(c[parentName], c.date, c[keyName])];
    });
  };
}
