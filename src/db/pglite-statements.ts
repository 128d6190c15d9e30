// Named prepared statements for the embedded database. PGlite's own query() sends every
// statement unnamed, so PostgreSQL parses and plans it again each time, in five separate calls
// into the WebAssembly module; for the site context read that is most of its cost. Here each
// distinct SQL text is parsed once into a named statement (PostgreSQL then reuses its plan, and
// replans by itself if a table it reads changes), and each later run is one call: Bind, Execute,
// Sync. See ADR 013. Queries inside a transaction take the same path (ADR 072): a create runs
// most of its statements there.
import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  types,
} from "@electric-sql/pglite";

const { serialize } = protocol;
type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];
type Field = { name: string; dataTypeID: number };

type Statement = {
  name: string;
  paramTypes: number[];
  /** The columns of its rows (none for a command that returns no rows). */
  fields: Field[];
};

/** Commands whose completion tag counts the rows they changed. */
const WRITES = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"]);

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

type Notification = { channel: string; payload: string };

/**
 * The rows, completion tag and notifications of a reply that holds only BindComplete, DataRow,
 * CommandComplete, NoData, EmptyQueryResponse, PortalSuspended, NotificationResponse and
 * ReadyForQuery; null if it holds anything else. Text format throughout, as everything here binds.
 */
function readReply(
  reply: Buffer,
): { rows: (string | null)[][]; tag: string | undefined; notifications: Notification[] } | null {
  const rows: (string | null)[][] = [];
  const notifications: Notification[] = [];
  let tag: string | undefined;
  let at = 0;
  while (at + 5 <= reply.length) {
    const type = String.fromCharCode(reply[at] as number);
    const end = at + 1 + reply.readInt32BE(at + 1);
    let p = at + 5;
    if (type === "D") {
      const row: (string | null)[] = new Array(reply.readInt16BE(p));
      p += 2;
      for (let i = 0; i < row.length; i++) {
        const length = reply.readInt32BE(p);
        p += 4;
        row[i] = length < 0 ? null : reply.toString("utf8", p, p + length);
        if (length > 0) p += length;
      }
      rows.push(row);
    } else if (type === "C") {
      tag = reply.toString("utf8", p, end - 1); // a C string: drop its terminating zero
    } else if (type === "A") {
      // The notifying backend's pid, then the channel and the payload as C strings.
      const channelEnd = reply.indexOf(0, p + 4);
      if (channelEnd < 0 || channelEnd >= end) return null;
      notifications.push({
        channel: reply.toString("utf8", p + 4, channelEnd),
        payload: reply.toString("utf8", channelEnd + 1, end - 1),
      });
    } else if (!"2nsIZ".includes(type)) {
      return null;
    }
    at = end;
  }
  return { rows, tag, notifications };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Execute (the unnamed portal, every row) and Sync, as PGlite's serializer writes them. */
const EXECUTE_SYNC = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4]);

/**
 * Bind (the unnamed portal to `statement`, every parameter and result in text), Execute and Sync
 * in one buffer: what `serialize.bind`, `serialize.execute` and `serialize.sync` make together,
 * written at once. PGlite's writer keeps its fields in WeakMaps and copies its buffer on every
 * flush: it was 7 % of the server's thread in a profile of the dashboard's book list.
 */
export function bindExecuteSync(statement: string, values: readonly (string | null)[]): Buffer {
  // 'B', length, portal "" and its zero, the name and its zero, no format codes (all text),
  // the parameters' count, each parameter's length and bytes, no result format codes.
  let size = 1 + 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + 2;
  for (const v of values) size += 4 + (v === null ? 0 : Buffer.byteLength(v));
  // A buffer of its own, not a slice of Node's shared pool: a message to the database's thread
  // is cloned with the whole memory under it.
  const out = Buffer.from(new ArrayBuffer(size + EXECUTE_SYNC.length));
  out[0] = 0x42;
  out.writeInt32BE(size - 1, 1);
  out[5] = 0;
  let at = 6 + out.write(statement, 6);
  out[at++] = 0;
  at = out.writeInt16BE(0, at);
  at = out.writeInt16BE(values.length, at);
  for (const v of values) {
    if (v === null) {
      at = out.writeInt32BE(-1, at);
    } else {
      const length = out.write(v, at + 4);
      out.writeInt32BE(length, at);
      at += 4 + length;
    }
  }
  at = out.writeInt16BE(0, at);
  EXECUTE_SYNC.copy(out, at);
  return out;
}

/** A channel name as PostgreSQL keeps it: unquoted names fold to lower case. */
export const postgresChannelName = (c: string) =>
  c.startsWith('"') && c.endsWith('"') ? c.slice(1, -1) : c.toLowerCase();

/** The wrapped instance itself, for measuring PGlite's own query() beside this (bench:queries). */
export const UNWRAPPED = Symbol("the PGlite instance without named statements");

export type NamedStatementsOptions = {
  /** Statements kept at most; the least recently used is closed beyond it. */
  max?: number;
};

/**
 * The same PGlite instance, whose query() keeps a named statement per SQL text, and whose
 * transaction() hands its callback a transaction whose query() does the same. Listen through
 * it (not the instance) so that notifications in replies it reads reach their listeners.
 * Everything else (exec, close, a transaction's exec and rollback) is the instance's own.
 */
export function withNamedStatements(client: PGlite, opts: NamedStatementsOptions = {}): PGlite {
  const max = opts.max ?? 200;
  const kept = new Map<string, Statement>();
  let sequence = 0;
  /**
   * Who listens on which channel, as PGlite keeps it: a notification in a reply read here
   * (a statement that ran pg_notify) is handed to them here, as PGlite would have.
   */
  const listeners = new Map<string, Set<(payload: string) => void>>();

  const listen: PGlite["listen"] = async (channel, callback, tx) => {
    const unlisten = await client.listen(channel, callback, tx);
    const name = postgresChannelName(channel);
    const set = listeners.get(name) ?? new Set();
    set.add(callback);
    listeners.set(name, set);
    return async (tx2) => {
      set.delete(callback);
      await unlisten(tx2);
    };
  };
  const locks = client as unknown as Exclusive;
  const notify = (channel: string, payload: string) => {
    for (const callback of listeners.get(channel) ?? []) queueMicrotask(() => callback(payload));
  };

  /** The kept statement for `sql`, made now if there is none; the database's error if it cannot be. */
  async function statementFor(sql: string): Promise<Statement | { error: BackendMessage }> {
    const statement = kept.get(sql);
    if (!statement) return prepare(sql);
    kept.delete(sql); // most recently used goes last
    kept.set(sql, statement);
    return statement;
  }

  async function prepare(sql: string): Promise<Statement | { error: BackendMessage }> {
    const name = `bp_${++sequence}`;
    const { messages } = await client.execProtocol(
      concat([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()]),
      { syncToFs: false, throwOnError: false },
    );
    const error = messages.find((m) => m.name === "error");
    if (error) return { error };
    const description = messages.find((m) => m.name === "rowDescription") as { fields: Field[] } | undefined;
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      fields: (description?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
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

  async function run<T>(
    sql: string,
    statement: Statement,
    params: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i] as number;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    // The reply is read here rather than by PGlite, whose reader copies every column value
    // into an ArrayBuffer of its own (measured at about a tenth of an uncached page's time).
    // No syncToFs: it copies the data directory out of WebAssembly memory only for a browser's
    // IndexedDB; the file system (and memory://) that this server opens write through, so for
    // them it is an empty call behind one more lock, on every statement.
    const chunks: Buffer[] = [];
    // Serializers give text; a custom one may give bytes, which PGlite's writer binds as binary.
    const text = values.every((v) => v === null || typeof v === "string");
    await client.execProtocolRawStream(
      text
        ? bindExecuteSync(statement.name, values as (string | null)[])
        : concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false, onRawData: (chunk: Uint8Array) => void chunks.push(Buffer.from(chunk)) },
    );
    const reply = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    const read = readReply(reply);
    if (read) {
      for (const { channel, payload } of read.notifications) notify(channel, payload);
      return toResults<T>(statement.fields, read.rows, read.tag, options);
    }
    // Something besides rows: an error, a notice or a notification. PGlite's reader makes them.
    const messages: BackendMessage[] = [];
    new protocol.Parser().parse(reply, (m) => void messages.push(m));
    const error = messages.find((m) => m.name === "error");
    if (error) throw Object.assign(error, { query: sql, params, queryOptions: options });
    const rows: (string | null)[][] = [];
    let tag: string | undefined;
    for (const m of messages) {
      if (m.name === "dataRow") rows.push((m as unknown as { fields: (string | null)[] }).fields);
      else if (m.name === "commandComplete") tag = (m as unknown as { text: string }).text;
      else if (m.name === "notice") options?.onNotice?.(m as Parameters<NonNullable<QueryOptions["onNotice"]>>[0]);
      else if (m.name === "notification") {
        const { channel, payload } = m as unknown as Notification;
        notify(channel, payload);
      }
    }
    return toResults<T>(statement.fields, rows, tag, options);
  }

  /**
   * What PGlite's parseResults makes of one statement's reply, without its per-call copy of
   * every type parser (measured as the largest single cost of a cached-plan query).
   */
  function toResults<T>(
    fields: Field[],
    dataRows: (string | null)[][],
    tag: string | undefined,
    options?: QueryOptions,
  ): Results<T> {
    const parsers = fields.map(
      (f) => options?.parsers?.[f.dataTypeID] ?? client.parsers[f.dataTypeID] ?? types.parsers[f.dataTypeID],
    );
    const value = (raw: string | null, i: number) => {
      const parser = parsers[i];
      return raw === null ? null : parser ? parser(raw, (fields[i] as Field).dataTypeID) : raw;
    };
    const rows =
      options?.rowMode === "array"
        ? dataRows.map((raw) => raw.map(value))
        : dataRows.map((raw) => Object.fromEntries(raw.map((r, i) => [(fields[i] as Field).name, value(r, i)])));
    const result: Results<T> = { rows: rows as T[], fields, affectedRows: 0 };
    if (tag !== undefined) {
      const words = tag.split(" ");
      const count = Number.parseInt(words.at(-1) ?? "", 10);
      result.command = words[0];
      if (WRITES.has(words[0] ?? "")) result.affectedRows = count;
      if (!Number.isNaN(count)) result.rowCount = count;
    }
    return result;
  }

  async function query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    // Uncommon shapes (COPY's blobs, caller-given parameter types) take PGlite's own path.
    if (options?.blob || options?.paramTypes) return client.query<T>(sql, params, options);
    await locks._checkReady();
    const outcome = await locks._runExclusiveTransaction(() =>
      locks._runExclusiveQuery(async (): Promise<{ result: Results<T> } | { fallback: true }> => {
        const statement = await statementFor(sql);
        if ("error" in statement) return { fallback: true }; // query() reports it properly
        try {
          return { result: await run<T>(sql, statement, params, options) };
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

  /**
   * A query inside a transaction: the transaction already holds PGlite's transaction lock, so
   * only the query lock is taken, as the transaction's own query() does. A database error
   * there fails the transaction, so nothing is retried another way: the error is raised (a
   * statement PostgreSQL cannot parse with its own error, as the transaction's query() would).
   */
  async function queryInTransaction<T>(
    tx: Transaction,
    sql: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    if (tx.closed || options?.blob || options?.paramTypes) return tx.query<T>(sql, params, options);
    return locks._runExclusiveQuery(async () => {
      const statement = await statementFor(sql);
      const fail = (err: object) => Object.assign(err, { query: sql, params, queryOptions: options });
      if ("error" in statement) throw fail(statement.error);
      try {
        return await run<T>(sql, statement, params, options);
      } catch (err) {
        if (STALE_STATEMENT.has((err as { code?: string }).code ?? "")) await drop(sql);
        throw fail(err as object);
      }
    });
  }

  const transaction: PGlite["transaction"] = (callback) =>
    client.transaction((tx) => {
      const ownQuery: Transaction["query"] = (sql, params, options) => queryInTransaction(tx, sql, params, options);
      return callback(
        new Proxy(tx, { get: (target, prop) => (prop === "query" ? ownQuery : Reflect.get(target, prop, target)) }),
      );
    });

  // Properties set on the wrapper stay on it, as on any object (tests wrap query() to count).
  const own = new Map<PropertyKey, unknown>([
    ["query", query],
    ["transaction", transaction],
    ["listen", listen],
    [UNWRAPPED, client],
  ]);
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
