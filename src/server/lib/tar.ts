// A small streaming tar.gz writer and reader for backups (ADR 046): a backup holds a database dump
// and every upload, which may be far larger than we want in memory at once, so entries are
// streamed through gzip one at a time. POSIX ustar, with a PAX header for names over 100 bytes.
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name: string, size: number, mtime: Date, type: "0" | "x"): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name.slice(0, 100), 0, 100, "utf8");
  h.write(octal(0o644, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(size, 12), 124, "ascii");
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, "ascii");
  h.write("        ", 148, "ascii");
  h.write(type, 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return h;
}

/** A PAX record `"<len> path=<name>\n"`, where len counts the whole record, its own digits too. */
function paxPath(name: string): Buffer {
  const body = ` path=${name}\n`;
  const bodyLength = Buffer.byteLength(body);
  let length = bodyLength + 1;
  while (String(length).length + bodyLength !== length) length = String(length).length + bodyLength;
  return Buffer.from(`${length}${body}`, "utf8");
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

function checkName(name: string) {
  if (!name || name.startsWith("/") || name.split("/").some((p) => p === ".." || p === "")) {
    throw new Error(`Bad archive entry name: ${name}`);
  }
}

export type TarGzWriter = {
  addBytes(name: string, data: Uint8Array, mtime?: Date): Promise<void>;
  /** Bytes arriving as chunks that add up to exactly `size`. */
  addStream(name: string, size: number, chunks: AsyncIterable<Uint8Array>, mtime?: Date): Promise<void>;
  /** A file on disk, streamed; exactly the size it had when added is written. */
  addFile(name: string, path: string): Promise<void>;
  finish(): Promise<void>;
  /** Stops writing (the partial file is the caller's to remove). */
  abort(): Promise<void>;
};

export function tarGzWriter(path: string): TarGzWriter {
  const gzip = createGzip({ level: 6 });
  // Readable by its owner only: a backup holds every password hash.
  const done = pipeline(gzip, createWriteStream(path, { mode: 0o600 }));
  // A write error surfaces from `done`; until it is awaited, keep it from being unhandled.
  done.catch(() => {});

  async function write(chunk: Buffer) {
    if (!gzip.write(chunk)) await Promise.race([once(gzip, "drain"), done]);
  }

  async function entryHeader(name: string, size: number, mtime: Date) {
    checkName(name);
    if (Buffer.byteLength(name) > 100) {
      const pax = paxPath(name);
      await write(header("PaxHeader", pax.length, mtime, "x"));
      await write(pax);
      await write(padding(pax.length));
    }
    await write(header(name, size, mtime, "0"));
  }

  return {
    async addBytes(name, data, mtime = new Date()) {
      await entryHeader(name, data.byteLength, mtime);
      await write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      await write(padding(data.byteLength));
    },
    async addStream(name, size, chunks, mtime = new Date()) {
      await entryHeader(name, size, mtime);
      let written = 0;
      for await (const chunk of chunks) {
        const take = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, size - written));
        written += take.length;
        await write(take);
      }
      if (written !== size) throw new Error(`${name}: expected ${size} bytes, got ${written}`);
      await write(padding(size));
    },
    async addFile(name, path) {
      const info = await stat(path);
      const size = info.size;
      await entryHeader(name, size, info.mtime);
      let written = 0;
      if (size > 0) {
        for await (const chunk of createReadStream(path, { start: 0, end: size - 1 })) {
          const buf = chunk as Buffer;
          const take = buf.subarray(0, size - written);
          written += take.length;
          await write(take);
        }
      }
      // A file that shrank while being read still fills its declared size: the archive stays readable.
      if (written < size) await write(Buffer.alloc(size - written));
      await write(padding(size));
    },
    async finish() {
      await write(Buffer.alloc(BLOCK * 2));
      gzip.end();
      await done;
    },
    async abort() {
      gzip.destroy();
      await done.catch(() => {});
    },
  };
}

export type TarEntry = { name: string; size: number };

/** The file is not a (complete) tar.gz: the message says what is wrong with it. */
export class ArchiveError extends Error {}

/** Exact reads over a stream of chunks. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private ended = false;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.length < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        this.buffered.push(next.value);
        this.length += next.value.length;
      }
    }
    return this.length >= n;
  }

  private take(n: number): Buffer {
    const all = this.buffered.length === 1 ? (this.buffered[0] as Buffer) : Buffer.concat(this.buffered);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.length ? [rest] : [];
    this.length = rest.length;
    return out;
  }

  async exactly(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) return null;
    return this.take(n);
  }

  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.length === 0 && !(await this.fill(1)))
        throw new ArchiveError("The archive ends in the middle of a file: it is incomplete");
      const piece = this.take(Math.min(left, this.length));
      left -= piece.length;
      yield piece;
    }
  }
}

function parseOctal(field: Buffer): number {
  const text = field.toString("ascii").replace(/\0.*$/s, "").trim();
  return text ? Number.parseInt(text, 8) : 0;
}

/**
 * Reads a tar.gz entry by entry. `onEntry` receives the entry and its bytes as chunks; what it
 * does not read is skipped. A file that is not a gzipped tar is an error with a plain message.
 */
export async function readTarGz(
  source: string | Readable,
  onEntry: (entry: TarEntry, data: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const input = typeof source === "string" ? createReadStream(source) : source;
  const gunzip = createGunzip();
  input.pipe(gunzip);
  input.on("error", (err) => gunzip.destroy(err));
  const reader = new ByteReader(gunzip[Symbol.asyncIterator]());
  let longName: string | undefined;
  try {
    for (;;) {
      const h = await reader.exactly(BLOCK);
      if (!h) throw new ArchiveError("The archive ends early (no end marker): it is incomplete");
      if (h.every((b) => b === 0)) return;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] as number);
      if (sum !== parseOctal(h.subarray(148, 156))) throw new ArchiveError("Not a tar archive (bad header checksum)");
      const size = parseOctal(h.subarray(124, 136));
      const type = String.fromCharCode(h[156] as number);
      const prefix = h.subarray(345, 500).toString("utf8").replace(/\0.*$/s, "");
      const shortName = h.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (type === "x") {
        const parts: Buffer[] = [];
        for await (const piece of reader.chunks(size)) parts.push(piece);
        const body = Buffer.concat(parts).toString("utf8");
        longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body)?.[1];
      } else if (type === "0" || type === "\0") {
        const name = longName ?? (prefix ? `${prefix}/${shortName}` : shortName);
        longName = undefined;
        let read = 0;
        const data = (async function* () {
          for await (const piece of reader.chunks(size)) {
            read += piece.length;
            yield piece;
          }
        })();
        await onEntry({ name, size }, data);
        // Whatever the handler left unread (a handler that stopped early closed its iterator).
        for await (const _ of reader.chunks(size - read)) {
        }
      } else {
        longName = undefined;
        for await (const _ of reader.chunks(size)) {
        }
      }
      if (pad) await reader.exactly(pad);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR") throw new ArchiveError("Not a gzip file, or a damaged one");
    throw err;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}
