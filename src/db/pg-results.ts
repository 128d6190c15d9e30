// pg builds, for every statement's row description, an object with one key per column (made
// key by key on a prototype-less object, which V8 keeps as a dictionary, then copied) so that
// rows as objects can start from a copy of it. Rows as arrays never read it, and Drizzle asks
// for arrays wherever it maps rows itself. For the 41 columns of a book that object cost
// 11–20 µs a statement (measured alone on Node 24), 12 % of a wall-clock profile of the
// uncached book page on PostgreSQL. Here a result in array mode only picks its parsers, as pg
// does; a result in object mode is pg's own.
import pg from "pg";

type Field = { name: string; dataTypeID: number; format?: "text" | "binary" };
type TypeParsers = { getTypeParser(oid: number, format: "text" | "binary"): (value: string) => unknown };
type ResultState = { rowAsArray: boolean; fields: Field[]; _parsers: unknown[] | undefined; _types?: TypeParsers };

const proto = (pg as unknown as { Result: { prototype: { addFields(fields: Field[]): void } } }).Result.prototype;
const pgOwn = proto.addFields;

function addFieldsForArrays(this: ResultState, fields: Field[]): void {
  if (!this.rowAsArray) {
    pgOwn.call(this, fields);
    return;
  }
  this.fields = fields;
  if (fields.length) this._parsers = new Array(fields.length);
  const types = this._types ?? pg.types;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as Field;
    (this._parsers as unknown[])[i] = types.getTypeParser(field.dataTypeID, field.format || "text");
  }
}

/** Makes pg's results in array mode skip the per-statement object only rows as objects use. */
export function lightenArrayResults(): void {
  proto.addFields = addFieldsForArrays as (fields: Field[]) => void;
}

/** Puts pg's own back (tests). */
export function restorePgResults(): void {
  proto.addFields = pgOwn;
}
