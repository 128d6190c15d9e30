// Named prepared statements for the embedded database. PGlite's own query() sends every
// statement unnamed, so PostgreSQL parses and plans it again each time, in five separate calls
// into the WebAssembly module; for the site context read that is most of its cost. Here each
// distinct SQL text is parsed once into a named statement (PostgreSQL then reuses its plan, and
// replans by itself if a table it reads changes), and each later run is one call: Bind, Execute,
// Sync. See ADR 013.
import { type PGlite, parse, protocol, type QueryOptions, type Results } from "@electric-sql/pglite";

const { serialize } = protocol;
type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];

type Statement = {
  name: string;
  paramTypes: number[];
  /** The statement's RowDescription (or none, for a command that returns no rows). */
  rowDescription: BackendMessage | undefined;
};

/** PGlite's lock-taking internals, public in JavaScript; query() takes both, in this order. */
type Exclusive = {
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
};

/** SQLSTATEs after which a kept statement is dropped and the query run afresh. */
const STALE_STATEMENT = new Set([
  "26000", // invalid_sql_statement_name: the statement is gone (DISCARD ALL, a reset)
  "0A000", // feature_not_supported: "cached plan must not change result type" after DDL
]);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export type NamedStatementsOptions = {
  /** Statements kept at most; the least recently used is closed beyond it. */
  max?: number;
};

/**
 * The same PGlite instance, whose query() keeps a named statement per SQL text. Everything else
 * (transactions, exec, listen, close) is the instance's own; queries inside a transaction go
 * through the transaction object and are not affected.
 */
export function withNamedStatements(client: PGlite, opts: NamedStatementsOptions = {}): PGlite {
  const max = opts.max ?? 200;
  const kept = new Map<string, Statement>();
  let sequence = 0;
  const locks = client as unknown as Exclusive;

  async function prepare(sql: string): Promise<Statement | null> {
    const name = `bp_${++sequence}`;
    const { messages } = await client.execProtocol(
      concat([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()]),
      { syncToFs: false, throwOnError: false },
    );
    if (messages.some((m) => m.name === "error")) return null; // query() reports it properly
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((m) => m.name === "rowDescription"),
    };
    kept.set(sql, statement);
    if (kept.size > max) {
      const [oldest] = kept.keys();
      if (oldest !== undefined) await drop(oldest);
    }
    return statement;
  }

  async function drop(sql: string) {
    const statement = kept.get(sql);
    if (!statement) return;
    kept.delete(sql);
    await client.execProtocol(concat([serialize.close({ type: "S", name: statement.name }), serialize.sync()]), {
      syncToFs: false,
      throwOnError: false,
    });
  }

  async function run<T>(statement: Statement, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i] as number;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await client.execProtocol(
      concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
    );
    const all = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(all, client.parsers, options)[0] as Results<T>;
  }

  async function query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    // Uncommon shapes (COPY's blobs, caller-given parameter types) take PGlite's own path.
    if (options?.blob || options?.paramTypes) return client.query<T>(sql, params, options);
    await locks._checkReady();
    const outcome = await locks._runExclusiveTransaction(() =>
      locks._runExclusiveQuery(async (): Promise<{ result: Results<T> } | { fallback: true }> => {
        let statement = kept.get(sql);
        if (statement) {
          kept.delete(sql); // most recently used goes last
          kept.set(sql, statement);
        } else {
          statement = (await prepare(sql)) ?? undefined;
          if (!statement) return { fallback: true };
        }
        try {
          return { result: await run<T>(statement, params, options) };
        } catch (err) {
          if (!STALE_STATEMENT.has((err as { code?: string }).code ?? "")) {
            // What PGlite's query() adds to a database error, for whoever reports it.
            throw Object.assign(err as object, { query: sql, params, queryOptions: options });
          }
          await drop(sql);
          return { fallback: true };
        }
      }),
    );
    return "result" in outcome ? outcome.result : client.query<T>(sql, params, options);
  }

  // Properties set on the wrapper stay on it, as on any object (tests wrap query() to count).
  const own = new Map<PropertyKey, unknown>([["query", query]]);
  return new Proxy(client, {
    get(target, prop) {
      if (own.has(prop)) return own.get(prop);
      const value = Reflect.get(target, prop, target);
      // PGlite keeps state in private fields, which only the instance itself may reach.
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(_target, prop, value) {
      own.set(prop, value);
      return true;
    },
  });
}
