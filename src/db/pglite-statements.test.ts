import { PGlite, protocol, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bindExecuteSync, withNamedStatements } from "./pglite-statements.ts";

/** A Bind message read back: its portal, statement, parameters (text) and the bytes after it. */
function readBind(message: Uint8Array) {
  const b = Buffer.from(message);
  expect(String.fromCharCode(b[0] as number)).toBe("B");
  const end = 1 + b.readInt32BE(1);
  let at = 5;
  const cstring = () => {
    const zero = b.indexOf(0, at);
    const text = b.toString("utf8", at, zero);
    at = zero + 1;
    return text;
  };
  const portal = cstring();
  const statement = cstring();
  const formats = Array.from({ length: b.readInt16BE(at) }, (_, i) => b.readInt16BE(at + 2 + 2 * i));
  at += 2 + 2 * formats.length;
  const params: (string | null)[] = [];
  const count = b.readInt16BE(at);
  at += 2;
  for (let i = 0; i < count; i++) {
    const length = b.readInt32BE(at);
    params.push(length < 0 ? null : b.toString("utf8", at + 4, at + 4 + length));
    at += 4 + Math.max(length, 0);
  }
  const resultFormats = b.readInt16BE(at);
  expect(at + 2).toBe(end);
  return { portal, statement, text: formats.every((f) => f === 0), params, resultFormats, rest: [...b.subarray(end)] };
}

let raw: PGlite;
let pg: PGlite;

const kept = async () =>
  (
    await raw.query<{ name: string; statement: string }>(
      "select name, statement from pg_prepared_statements where name like 'bp\\_%' order by name",
    )
  ).rows;

beforeAll(async () => {
  raw = await PGlite.create();
  pg = withNamedStatements(raw, { max: 5 });
  await raw.exec(`
    create table t (id int primary key, name text, tags text[], doc jsonb, at timestamptz, ok boolean, n numeric);
    insert into t values
      (1, 'one', '{a,b}', '{"k": [1, 2]}', '2026-01-02T03:04:05Z', true, 1.5),
      (2, null, null, null, null, null, null);
  `);
});

afterAll(async () => {
  await raw.close();
});

describe("bindExecuteSync", () => {
  it("writes what PGlite's serializer writes for Bind, Execute and Sync, every parameter in text", () => {
    const { serialize } = protocol;
    for (const values of [[], [null], [""], ["1", null, "naïve — 書", "x".repeat(70_000)]]) {
      const theirs = Buffer.concat([
        serialize.bind({ statement: "bp_12", values }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      const ours = readBind(bindExecuteSync("bp_12", values));
      expect(ours).toEqual(readBind(theirs));
      expect(ours).toMatchObject({ portal: "", statement: "bp_12", text: true, params: values, resultFormats: 0 });
    }
  });
});

describe("PGlite with named statements", () => {
  it("answers exactly as PGlite's own query does, in both row modes and with custom parsers", async () => {
    const sql = "select * from t where id = any($1::int[]) order by id";
    const parsers = { [types.TIMESTAMPTZ]: (v: string) => v };
    for (const options of [undefined, { rowMode: "array" as const }, { rowMode: "array" as const, parsers }]) {
      expect(await pg.query(sql, [[1, 2]], options)).toEqual(await raw.query(sql, [[1, 2]], options));
    }
    expect(await pg.query("select 1 where false")).toEqual(await raw.query("select 1 where false"));
    const [row] = (await pg.query<{ doc: unknown; at: unknown; tags: unknown }>(sql, [[1]])).rows;
    expect(row).toMatchObject({ doc: { k: [1, 2] }, tags: ["a", "b"], at: new Date("2026-01-02T03:04:05Z") });
  });

  it("parses a statement once and reuses it with new parameters", async () => {
    const sql = "select name from t where id = $1";
    expect((await pg.query(sql, [1])).rows).toEqual([{ name: "one" }]);
    expect((await pg.query(sql, [2])).rows).toEqual([{ name: null }]);
    expect((await kept()).filter((s) => s.statement === sql)).toHaveLength(1);
  });

  it("reports writes and their row counts as PGlite does", async () => {
    const insert = await pg.query("insert into t (id, name) values ($1, $2), ($3, $4)", [10, "ten", 11, "eleven"]);
    expect(insert).toEqual(await raw.query("insert into t (id, name) values (12, 'x'), (13, 'y')"));
    expect(insert).toMatchObject({ affectedRows: 2, command: "INSERT", rows: [], fields: [] });
    const update = (id: number) => `update t set name = upper(name) where id >= ${id} returning id`;
    expect(await pg.query(update(10))).toEqual(await raw.query(update(10)));
    expect((await pg.query(update(13))).affectedRows).toBe(1);
    expect((await pg.query("select name from t where id between $1 and $2 order by id", [10, 11])).rows).toEqual([
      { name: "TEN" },
      { name: "ELEVEN" },
    ]);
    await pg.query("delete from t where id >= $1", [10]);
  });

  it("raises a database error with its code and the query, and keeps working after it", async () => {
    const error = await pg.query("insert into t (id) values ($1)", [1]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505", query: "insert into t (id) values ($1)", params: [1] });
    expect((await pg.query("select count(*)::int as n from t where id = $1", [1])).rows).toEqual([{ n: 1 }]);
  });

  it("reports a statement PostgreSQL cannot parse as PGlite does, and keeps nothing of it", async () => {
    const error = await pg.query("selec oops").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "42601" });
    expect((await kept()).some((s) => s.statement.includes("oops"))).toBe(false);
  });

  it("follows a table whose columns changed after its statement was kept", async () => {
    await raw.exec("create table u (id int)");
    await raw.exec("insert into u values (1)");
    expect((await pg.query("select * from u")).rows).toEqual([{ id: 1 }]);
    await raw.exec("alter table u add column label text default 'x'");
    expect((await pg.query("select * from u")).rows).toEqual([{ id: 1, label: "x" }]);
    expect((await pg.query("select * from u")).rows).toEqual([{ id: 1, label: "x" }]);
  });

  it("keeps at most `max` statements, closing the least recently used", async () => {
    for (let i = 0; i < 12; i++) await pg.query(`select ${i} as n where $1::int = 1`, [1]);
    const statements = await kept();
    expect(statements.length).toBeLessThanOrEqual(5);
    expect(statements.map((s) => s.statement)).toContain("select 11 as n where $1::int = 1");
    expect(statements.map((s) => s.statement)).not.toContain("select 0 as n where $1::int = 1");
  });

  it("waits for an open transaction, as PGlite's query does, instead of running inside it", async () => {
    const order: string[] = [];
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const tx = pg.transaction(async (t) => {
      await t.query("insert into t (id, name) values (20, 'in tx')");
      order.push("tx wrote");
      await held;
    });
    await new Promise((r) => setTimeout(r, 20));
    const outside = pg.query<{ n: number }>("select count(*)::int as n from t where id = $1", [20]).then((r) => {
      order.push("outside read");
      return r.rows[0]?.n;
    });
    await new Promise((r) => setTimeout(r, 20));
    order.push("commit");
    release();
    await tx;
    expect(await outside).toBe(1);
    expect(order).toEqual(["tx wrote", "commit", "outside read"]);
  });

  it("hands notifications and notices in a reply to their listeners, once each", async () => {
    const heard: string[] = [];
    const unlisten = await pg.listen("Site_Changed", (payload) => heard.push(payload));
    for (const payload of ["a", "b"]) await pg.query("select pg_notify('site_changed', $1)", [payload]);
    await pg.transaction((tx) => tx.query("select pg_notify('site_changed', 'c')"));
    await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual(["a", "b", "c"]);
    await unlisten();
    await pg.query("select pg_notify('site_changed', $1)", ["d"]);
    await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual(["a", "b", "c"]);

    const notices: string[] = [];
    const say = "do $$ begin raise notice 'hello'; end $$";
    for (let i = 0; i < 2; i++) await pg.query(say, [], { onNotice: (n) => notices.push(n.message ?? "") });
    expect(notices).toEqual(["hello", "hello"]);
  });

  it("gives each of many concurrent queries its own answer", async () => {
    const ids = [1, 2, 1, 2, 1, 2, 1, 2];
    const names = await Promise.all(
      ids.map(async (id) => (await pg.query<{ name: string | null }>("select name from t where id = $1", [id])).rows),
    );
    expect(names).toEqual(ids.map((id) => [{ name: id === 1 ? "one" : null }]));
  });

  it("keeps named statements inside a transaction too, with the same answers, commits and rollbacks", async () => {
    const sql = "select id, name, tags from t where id = $1";
    const inTx = await pg.transaction(async (tx) => {
      const first = await tx.query(sql, [1]);
      await tx.query("insert into t (id, name) values ($1, $2)", [30, "thirty"]);
      return { first, again: await tx.query(sql, [30]) };
    });
    expect(inTx.first).toEqual(await raw.query(sql, [1]));
    expect(inTx.again.rows).toEqual([{ id: 30, name: "thirty", tags: null }]);
    expect((await kept()).filter((s) => s.statement === sql)).toHaveLength(1);

    // A failed statement fails the transaction with its own error, and nothing of it stays.
    const duplicate = await pg
      .transaction(async (tx) => {
        await tx.query("insert into t (id, name) values ($1, $2)", [31, "gone"]);
        await tx.query("insert into t (id, name) values ($1, $2)", [1, "taken"]);
      })
      .catch((e: unknown) => e);
    expect(duplicate).toMatchObject({ code: "23505", params: [1, "taken"] });
    const unparsable = await pg.transaction((tx) => tx.query("selec oops")).catch((e: unknown) => e);
    expect(unparsable).toMatchObject({ code: "42601", query: "selec oops" });
    expect((await pg.query("select id from t where id between $1 and $2 order by id", [30, 31])).rows).toEqual([
      { id: 30 },
    ]);
    // Rolled back by the caller: the statement stays kept, the row does not.
    await pg.transaction(async (tx) => {
      await tx.query("insert into t (id, name) values ($1, $2)", [32, "undone"]);
      await tx.rollback();
    });
    expect((await pg.query("select count(*)::int as n from t where id = $1", [32])).rows).toEqual([{ n: 0 }]);
    await pg.query("delete from t where id >= $1", [30]);
  });
});
