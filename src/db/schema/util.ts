import { sql } from "drizzle-orm";
import { type AnyPgColumn, date, integer, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sqlList } from "../../shared/enums.ts";

/** A check that a column holds one of the given values (or is null). */
export function oneOf(column: unknown, values: readonly string[]) {
  return sql`${column} in (${sql.raw(sqlList(values))})`;
}

/** The row's own key: a random uuid. */
export const uuidKey = () => uuid("id").primaryKey().defaultRandom();

/** The UTC day a row of daily figures is for ("2026-11-26"). */
export const day = () => date("date", { mode: "string" }).notNull();

/** A tally: how many times something happened, from 0. */
export const count = <N extends string>(name: N) => integer(name).notNull().default(0);

/** When the row was written (the database's clock). */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** When the row was written and last changed (the services set `updatedAt` on every change). */
export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A required key to the row this one belongs to, deleted with it (a uuid key). */
export const parentUuid = <N extends string>(name: N, parent: () => AnyPgColumn) =>
  uuid(name).notNull().references(parent, { onDelete: "cascade" });

/** A required key to the row this one belongs to, deleted with it (a text key: Better Auth's user). */
export const parentText = <N extends string>(name: N, parent: () => AnyPgColumn) =>
  text(name).notNull().references(parent, { onDelete: "cascade" });
