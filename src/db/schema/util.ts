import { sql } from "drizzle-orm";
import { sqlList } from "../../shared/enums.ts";

/** A check that a column holds one of the given values (or is null). */
export function oneOf(column: unknown, values: readonly string[]) {
  return sql`${column} in (${sql.raw(sqlList(values))})`;
}
