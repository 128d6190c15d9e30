// The embedded database's own thread (ADR 088). PGlite runs here; the server's thread sends it
// PostgreSQL protocol messages and gets back the bytes PostgreSQL answered, so a statement's
// WebAssembly runs beside the server's JavaScript instead of in its turn. Plain JavaScript with
// types only (no imports of ours): Node runs this file as it is, from the sources or the build.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

export type WorkerStart = {
  /** The data directory, or undefined for one in memory. */
  dataDir: string | undefined;
  startParams: string[];
  /** A copy of a data directory (a tar) to fill an empty one from. */
  loadDataDir: Blob | undefined;
};

export type Ask =
  | { id: number; op: "exec"; message: Uint8Array }
  | { id: number; op: "dump" }
  | { id: number; op: "close" };

export type Answer =
  | { id: number; reply: Uint8Array }
  | { id: number; blob: Blob }
  | { id: number; closed: true }
  | { id: number; error: unknown };

export type Started = { ready: true } | { ready: false; error: unknown };

const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs as a worker thread");
const start = workerData as WorkerStart;

let client: PGlite;
try {
  client = await PGlite.create(start.dataDir, {
    startParams: start.startParams,
    extensions: { pg_trgm },
    ...(start.loadDataDir ? { loadDataDir: start.loadDataDir } : {}),
  });
  port.postMessage({ ready: true } satisfies Started);
} catch (error) {
  port.postMessage({ ready: false, error } satisfies Started);
  port.close();
  throw error;
}

port.on("message", async (ask: Ask) => {
  try {
    if (ask.op === "exec") {
      // The raw stream, not execProtocolRawSync: that one also parses every reply into a list
      // that only execProtocol() empties. The chunks are views of WebAssembly memory: copied
      // once, into the buffer that is then handed over, not copied again.
      const chunks: Uint8Array[] = [];
      let length = 0;
      await client.execProtocolRawStream(ask.message, {
        syncToFs: false,
        onRawData: (chunk) => {
          chunks.push(chunk.slice());
          length += chunk.length;
        },
      });
      const reply = chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(length);
      if (chunks.length !== 1) {
        let at = 0;
        for (const chunk of chunks) {
          reply.set(chunk, at);
          at += chunk.length;
        }
      }
      port.postMessage({ id: ask.id, reply } satisfies Answer, [reply.buffer as ArrayBuffer]);
    } else if (ask.op === "dump") {
      const blob = await client.dumpDataDir("none");
      port.postMessage({ id: ask.id, blob } satisfies Answer);
    } else {
      await client.close();
      port.postMessage({ id: ask.id, closed: true } satisfies Answer);
      port.close();
    }
  } catch (error) {
    port.postMessage({ id: ask.id, error } satisfies Answer);
  }
});
