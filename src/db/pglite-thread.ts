// PGlite on a thread of its own (ADR 088). The server's thread keeps a PGlite that has no
// database of its own: PGlite's query(), exec(), transaction() and sql (its base class) run here
// on top of one primitive, a protocol message sent to the worker (src/db/pglite-worker.ts) and
// the bytes PostgreSQL answered. The locks, the listeners and the reading of replies stay here;
// only PostgreSQL's own work moves, so it runs on the other core while this thread renders.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { Mutex, messages, PGlite, protocol } from "@electric-sql/pglite";
import { postgresChannelName } from "./pglite-statements.ts";
import type { Answer, Ask, Started, WorkerStart } from "./pglite-worker.ts";

/** The worker's file: the bundle's beside it (dist/server), the source beside this one. */
function workerFile(): URL {
  const built = new URL("./pglite-worker.js", import.meta.url);
  return import.meta.url.endsWith(".ts") || !existsSync(built) ? new URL("./pglite-worker.ts", import.meta.url) : built;
}

type ExecOptions = { throwOnError?: boolean; onNotice?: (notice: messages.NoticeMessage) => void };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * PGlite's base class, which builds query(), exec(), transaction() and sql on the abstract
 * protocol methods below; the package does not export it by name, PGlite extends it.
 */
const BasePGlite = Object.getPrototypeOf(PGlite) as new () => object;

class ThreadedPGlite extends BasePGlite {
  debug = 0 as const;
  readonly #worker: Worker;
  readonly #pending = new Map<number, { ok: (a: Answer) => void; fail: (e: unknown) => void }>();
  #next = 0;
  #closed = false;
  /** Why the worker stopped, when it stopped by itself. */
  #died: Error | undefined;
  // PGlite's own locks (the package exports them), as PGlite keeps them.
  readonly #queryMutex = new Mutex();
  readonly #transactionMutex = new Mutex();
  readonly #listenMutex = new Mutex();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();

  constructor(worker: Worker, onLost: (why: Error) => void) {
    super();
    this.#worker = worker;
    threads.set(this, worker);
    worker.on("message", (a: Answer) => {
      const waiting = this.#pending.get(a.id);
      if (!waiting) return;
      this.#pending.delete(a.id);
      if (this.#pending.size === 0) worker.unref();
      if ("error" in a) waiting.fail(a.error);
      else waiting.ok(a);
    });
    const stop = (why: Error) => {
      const first = !this.#died && !this.#closed;
      this.#died ??= why;
      for (const { fail } of this.#pending.values()) fail(why);
      this.#pending.clear();
      if (first) onLost(why);
    };
    worker.on("error", (err: Error) => stop(err));
    worker.on("exit", (code) => stop(new Error(`the embedded database's thread exited (${code})`)));
  }

  get closed() {
    return this.#closed;
  }

  get ready() {
    return !this.#closed && !this.#died;
  }

  #ask(ask: DistributiveOmit<Ask, "id">): Promise<Answer> {
    if (this.#died) return Promise.reject(this.#died);
    const id = ++this.#next;
    // The thread keeps the process alive only while it owes an answer: an idle database must
    // not hold a process that is done, and one mid-statement must.
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise((ok, fail) => {
      this.#pending.set(id, { ok, fail });
      this.#worker.postMessage({ ...ask, id });
    });
  }

  async execProtocolRaw(message: Uint8Array, _opts?: unknown): Promise<Uint8Array> {
    const answer = await this.#ask({ op: "exec", message });
    return (answer as { reply: Uint8Array }).reply;
  }

  async execProtocolRawStream(message: Uint8Array, { onRawData }: { onRawData: (data: Uint8Array) => void }) {
    const reply = await this.execProtocolRaw(message);
    if (reply.length > 0) onRawData(reply);
  }

  /**
   * The reply's messages, as PGlite's own execProtocol reads them: the first database error
   * ends what is kept (and is thrown when `throwOnError`), notices go to `onNotice`,
   * notifications to their listeners.
   */
  #read(data: Uint8Array, { throwOnError = true, onNotice }: ExecOptions) {
    const read: messages.BackendMessage[] = [];
    let error: messages.DatabaseError | undefined;
    new protocol.Parser().parse(data, (msg) => {
      if (error) return;
      if (msg instanceof messages.DatabaseError) {
        if (throwOnError) error = msg;
      } else if (msg instanceof messages.NoticeMessage) {
        onNotice?.(msg);
      } else if (msg instanceof messages.NotificationResponseMessage) {
        for (const callback of this.#listeners.get(msg.channel) ?? []) queueMicrotask(() => callback(msg.payload));
      }
      read.push(msg);
    });
    if (error) throw error;
    return read;
  }

  async execProtocol(message: Uint8Array, opts: ExecOptions = {}) {
    const data = await this.execProtocolRaw(message);
    return { messages: this.#read(data, opts), data };
  }

  async execProtocolStream(message: Uint8Array, opts: ExecOptions = {}) {
    return this.#read(await this.execProtocolRaw(message), opts);
  }

  /** Written through: the worker's file system has nothing to copy out. */
  async syncToFs() {}

  // COPY to and from a blob: not used by this server.
  async _handleBlob(blob?: Blob) {
    if (blob) throw new Error("COPY with a blob is not supported on the embedded database's thread");
  }
  async _getWrittenBlob() {
    return undefined;
  }
  async _cleanupBlob() {}

  async _checkReady() {
    if (this.#closed) throw new Error("PGlite is closed");
    if (this.#died) throw this.#died;
  }

  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queryMutex.runExclusive(fn);
  }

  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.#transactionMutex.runExclusive(fn);
  }

  async listen(channel: string, callback: (payload: string) => void, tx?: { exec(sql: string): Promise<unknown> }) {
    const name = postgresChannelName(channel);
    await this.#listenMutex.runExclusive(async () => {
      const set = this.#listeners.get(name) ?? new Set();
      set.add(callback);
      this.#listeners.set(name, set);
      try {
        await (tx ?? (this as unknown as PGlite)).exec(`LISTEN ${channel}`);
      } catch (err) {
        set.delete(callback);
        if (set.size === 0) this.#listeners.delete(name);
        throw err;
      }
    });
    return (tx2?: { exec(sql: string): Promise<unknown> }) => this.unlisten(channel, callback, tx2);
  }

  async unlisten(channel: string, callback?: (payload: string) => void, tx?: { exec(sql: string): Promise<unknown> }) {
    const name = postgresChannelName(channel);
    await this.#listenMutex.runExclusive(async () => {
      const set = this.#listeners.get(name);
      if (callback) set?.delete(callback);
      if (callback && set && set.size > 0) return;
      this.#listeners.delete(name);
      await (tx ?? (this as unknown as PGlite)).exec(`UNLISTEN ${channel}`);
    });
  }

  /** The data directory as a tar, taken between statements. */
  async dumpDataDir(_compression?: "none"): Promise<Blob> {
    return this.#queryMutex.runExclusive(async () => ((await this.#ask({ op: "dump" })) as { blob: Blob }).blob);
  }

  /** Waits for the statements under way, closes the database and ends its thread. */
  async close() {
    if (this.#closed) return;
    await this.#transactionMutex.runExclusive(() =>
      this.#queryMutex.runExclusive(async () => {
        if (this.#closed) return;
        this.#closed = true;
        try {
          if (!this.#died) await this.#ask({ op: "close" });
        } finally {
          await this.#worker.terminate();
        }
      }),
    );
  }
}

/** Each threaded PGlite's worker, for endThreadAbruptly. */
const threads = new WeakMap<object, Worker>();

/** Tests only: ends `client`'s thread as a crash inside the database would, without closing it. */
export async function endThreadAbruptly(client: PGlite): Promise<void> {
  await threads.get(client)?.terminate();
}

/**
 * PGlite in a worker thread, opened on `dataDir` (undefined: in memory) with these start
 * parameters, filled first from `loadDataDir` when given. Resolves once the database is up.
 * `onLost` is told, once, if the thread stops by itself later (a crash inside the database):
 * every statement fails from then on, and nothing here brings it back.
 */
export async function createThreadedPglite(
  start: WorkerStart,
  onLost: (why: Error) => void = () => {},
): Promise<PGlite> {
  const worker = new Worker(workerFile(), {
    workerData: start,
    // Its JavaScript only passes bytes to and from WebAssembly: a small young generation is
    // enough, where the process's own (--max-semi-space-size) would grow to tens of MB.
    resourceLimits: { maxYoungGenerationSizeMb: 2 },
  });
  const started = await new Promise<Started>((ok, fail) => {
    worker.once("message", ok);
    worker.once("error", fail);
    worker.once("exit", (code) => fail(new Error(`the embedded database's thread exited (${code}) before it started`)));
  });
  if (!started.ready) {
    await worker.terminate();
    throw started.error;
  }
  // Only these three: the worker's own 'newListener' hooks start its message port.
  for (const event of ["message", "error", "exit"]) worker.removeAllListeners(event);
  worker.unref();
  const client = new ThreadedPGlite(worker, onLost) as unknown as PGlite;
  // As PGlite.create does once the database is up: the array types' parsers and serializers.
  try {
    await client._initArrayTypes();
  } catch (err) {
    await client.close();
    throw err;
  }
  return client;
}
