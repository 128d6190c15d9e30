// A select the request path runs on every signed-in request, prepared once per database handle
// with its rows made into objects by a mapper built once. Drizzle's own mapping walks each
// column's path with an iterator and destructured entries, per cell and per call: for the
// dashboard's book list that was a third of everything the request allocated (ADR 082), and the
// collections it fed were the event loop's longest stops. Same SQL, same decoders, same values.
import { Column, is, SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

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
  const prepared = db._.session.prepareQuery<{ execute: Row[]; all: unknown; values: unknown }>(
    query.toSQL(),
    undefined,
    name,
    true,
    map,
  );
  return { execute: (values: Record<string, unknown>): Promise<Row[]> => prepared.execute(values) };
}
