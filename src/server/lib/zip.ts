// A small ZIP writer (and reader, for tests and tools): the data export is a handful of JSON
// files and already-compressed WebP images, so no dependency is needed. Text is deflated, images
// are stored as they are. Entries are UTF-8 named (general purpose flag bit 11).
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

export type ZipEntry = { name: string; data: Uint8Array; modified?: Date };

const UTF8 = 0x0800;

/** DOS date and time, as ZIP stores them (local time has no meaning here: UTC). */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The archive's bytes. Names must be relative paths with forward slashes. */
type EntryFields = {
  method: number;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  size: number;
  name: Buffer;
};

/** The run of fields a local header and its central-directory record share, from the flags on. */
function writeEntry(header: Buffer, at: number, e: EntryFields) {
  header.writeUInt16LE(UTF8, at);
  header.writeUInt16LE(e.method, at + 2);
  header.writeUInt16LE(e.time, at + 4);
  header.writeUInt16LE(e.date, at + 6);
  header.writeUInt32LE(e.crc, at + 8);
  header.writeUInt32LE(e.compressed, at + 12);
  header.writeUInt32LE(e.size, at + 16);
  header.writeUInt16LE(e.name.length, at + 20);
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    if (!e.name || e.name.startsWith("/") || e.name.split("/").includes("..")) throw new Error(`Bad name: ${e.name}`);
    const name = Buffer.from(e.name, "utf8");
    const raw = Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength);
    const deflated = /\.(webp|png|jpe?g|gif|zip)$/i.test(e.name) ? null : deflateRawSync(raw);
    const store = !deflated || deflated.length >= raw.length;
    const body = store ? raw : deflated;
    const crc = crc32(raw) >>> 0;
    const { time, date } = dosTime(e.modified ?? new Date());
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const entry = { method: store ? 0 : 8, time, date, crc, compressed: body.length, size: raw.length, name };
    writeEntry(local, 6, entry);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    writeEntry(central, 8, entry);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
    if (offset > 0xffffffff) throw new Error("Archive too large for ZIP without ZIP64");
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The entries of an archive `zip` wrote (stored or deflated), checked against their CRCs. */
export function unzip(archive: Uint8Array): Map<string, Buffer> {
  const buf = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const endAt = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error("Not a ZIP archive");
  const count = buf.readUInt16LE(endAt + 10);
  let at = buf.readUInt32LE(endAt + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error("Bad central directory");
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const size = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString("utf8", at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const body = buf.subarray(dataAt, dataAt + size);
    const data = method === 8 ? inflateRawSync(body) : Buffer.from(body);
    if (crc32(data) >>> 0 !== crc) throw new Error(`CRC mismatch: ${name}`);
    out.set(name, data);
    at += 46 + nameLength + extra + comment;
  }
  return out;
}
