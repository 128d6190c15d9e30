import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { lightenArrayResults, restorePgResults } from "./pg-results.ts";

type Row = unknown[] | Record<string, unknown>;
type TestResult = {
  addFields(f: unknown[]): void;
  parseRow(v: (string | null)[]): Row;
  _prebuiltEmptyResultObject: unknown;
};
const Result = (pg as unknown as { Result: new (mode?: string, types?: unknown) => TestResult }).Result;

// text, int4, bool, timestamptz, jsonb, numeric, text[]: pg's own parsers for each.
const fields = [25, 23, 16, 1184, 3802, 1700, 1009].map((dataTypeID, i) => ({
  name: `c${i}`,
  dataTypeID,
  format: "text",
}));
const values = ["a", "42", "t", "2026-11-27 15:00:00.123+00", '{"k":[1,2]}', "1.50", "{x,y}"];
const withNulls = values.map((v, i) => (i % 2 ? null : v));

function rowsOf(mode: string | undefined, types?: unknown): Row[] {
  const r = new Result(mode, types);
  r.addFields(fields);
  return [r.parseRow(values), r.parseRow(withNulls)];
}

afterEach(restorePgResults);

describe("pg results in array mode", () => {
  it("are the rows pg itself makes, with its parsers or a query's own, and rows as objects are untouched", () => {
    const custom = { getTypeParser: (oid: number) => (v: string) => `${oid}:${v}` };
    const before = [rowsOf("array"), rowsOf("array", custom), rowsOf(undefined)];
    lightenArrayResults();
    expect([rowsOf("array"), rowsOf("array", custom), rowsOf(undefined)]).toEqual(before);
    expect(before[0]?.[0]).toEqual([
      "a",
      42,
      true,
      new Date("2026-11-27T15:00:00.123Z"),
      { k: [1, 2] },
      "1.50",
      ["x", "y"],
    ]);
  });

  it("no longer build the object only rows as objects start from", () => {
    const build = () => {
      const r = new Result("array");
      r.addFields(fields);
      return r._prebuiltEmptyResultObject;
    };
    expect(build()).toEqual({ c0: null, c1: null, c2: null, c3: null, c4: null, c5: null, c6: null });
    lightenArrayResults();
    expect(build()).toBeNull();
  });
});
