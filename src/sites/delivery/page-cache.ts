// Rendered public pages, grouped by site and dropped as a whole when anything of that site
// changes (see markSiteChanged). Bounded by total bytes; least recently used goes first
// (nearly: ADR 043). A page is looked up by its request key alone (host, mode, path, variant):
// a hit needs no database.
import { hash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { SiteKeys } from "../../server/modules/sites/site-keys.ts";

export type CachedPage = {
  status: number;
  /** UTF-8 bytes, encoded once: a cache hit writes them to the socket as they are. */
  body: Uint8Array<ArrayBuffer> | string;
  /** Strong validator of the body. */
  etag: string;
  /** Response headers other than the caching ones, which are decided per request. */
  headers: Record<string, string>;
  /** websites.id, for visit counting and the surrogate key. */
  websiteId: string;
  /** An HTML page a reader looks at: its 200s and 304s count as page views. */
  countsAsView: boolean;
  /** When it stops being right (ms since the epoch; a countdown's midnight): not served after. */
  expiresAt?: number;
  /** A request header besides Cookie and Accept-Encoding the page depends on (a book page's country). */
  vary?: string;
  /** The store a book page shows first, counted with each view of it (ADR 036). */
  store?: { bookId: string; store: string };
  /** Compressed copies, made on first demand and kept with the page. */
  encoded?: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>;
  /** Per encoding, the caching headers and all the headers, built on first demand (delivery.ts). */
  caching?: Partial<Record<Encoding | "identity", Record<string, string>>>;
  full?: Partial<Record<Encoding | "identity", Record<string, string>>>;
};

export type Encoding = "br" | "gzip";

/** Smaller pages gain nothing worth the CPU. */
const MIN_COMPRESS_BYTES = 1024;

/** The encoding to send for an Accept-Encoding header (brotli first), or null for the bytes as they are. */
export function pickEncoding(acceptEncoding: string | undefined, page: Pick<CachedPage, "body">): Encoding | null {
  if (!acceptEncoding || page.body.length < MIN_COMPRESS_BYTES) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const q = params.map((x) => x.trim()).find((x) => x.startsWith("q="));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

/** The page's body in `encoding`, compressed once (a cached page is compressed once per encoding). */
export function encodedBody(page: Pick<CachedPage, "body" | "encoded">, encoding: Encoding): Uint8Array<ArrayBuffer> {
  page.encoded ??= {};
  let out = page.encoded[encoding];
  if (!out) {
    const raw = typeof page.body === "string" ? Buffer.from(page.body, "utf8") : page.body;
    const packed =
      encoding === "br"
        ? brotliCompressSync(raw, {
            params: {
              // Quality 5 is most of brotli's gain at a few per cent of the time of the default 11.
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
            },
          })
        : gzipSync(raw, { level: 6 });
    out = new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength) as Uint8Array<ArrayBuffer>;
    page.encoded[encoding] = out;
  }
  return out;
}

/** A strong validator per representation: the compressed bytes are not the identity bytes. */
export const encodedEtag = (etag: string, encoding: Encoding | null) =>
  encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag;

export function etagOf(body: Uint8Array | string): string {
  return `"${hash("sha1", body, "base64url").slice(0, 27)}"`;
}

const encoder = new TextEncoder();
/** Reused by every encoding (they are synchronous): three bytes per UTF-16 unit at most. */
let scratch = new Uint8Array(0);
/** Pages up to this many UTF-16 units are encoded through `scratch`; larger ones take Buffer.from. */
const SCRATCH_MAX_UNITS = 512 * 1024;

/**
 * A rendered page's UTF-8 bytes. Buffer.from measures a string in one pass and encodes it in a
 * second, and a page holding one character past Latin-1 (a star, a curly quote) is a two-byte
 * string, for which both passes take V8's slow path: ~80 µs for a 31 KB page. Encoding once into
 * a scratch buffer big enough for any result, then copying the bytes out, is half that.
 */
export function utf8Bytes(text: string): Buffer<ArrayBuffer> {
  if (text.length > SCRATCH_MAX_UNITS) return Buffer.from(text, "utf8");
  if (scratch.length < text.length * 3) scratch = new Uint8Array(Math.max(text.length * 3, 64 * 1024));
  const { written } = encoder.encodeInto(text, scratch);
  const bytes = Buffer.allocUnsafeSlow(written);
  bytes.set(scratch.subarray(0, written));
  return bytes;
}

/** `read`: read since it was stored or last given its second chance (`evictOldest`). */
type Entry = { siteId: string; page: CachedPage; bytes: number; storedAt: number; read: boolean };

export class PageCache {
  private readonly pages = new Map<string, Entry>();
  private readonly sites = new SiteKeys();
  private bytes = 0;

  /**
   * @param maxBytes total budget
   * @param maxAgeMs safety net only: a page is normally dropped by its site's change notice;
   *   this bounds how long a page can outlive a notice that never arrived.
   */
  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxAgeMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): CachedPage | undefined {
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (now - entry.storedAt > this.maxAgeMs || (entry.page.expiresAt !== undefined && now >= entry.page.expiresAt)) {
      this.remove(key);
      return undefined;
    }
    // Marked, not moved. Re-inserting it in `pages` on every read would take a new slot of the
    // Map's table each time, and a full table is rebuilt in V8's old generation, where the
    // long-lived Map is: garbage only a full collection frees. Under load one ran every second
    // (ADR 043).
    entry.read = true;
    return entry.page;
  }

  set(siteId: string, key: string, page: CachedPage): void {
    this.remove(key);
    // A string counts twice its length (UTF-16); bytes count half again for the compressed
    // copies made later (together well under half of the page).
    // About 1 KB more for the entry, its key and the header sets built for it (delivery.ts).
    const bytes = (typeof page.body === "string" ? page.body.length * 2 : Math.ceil(page.body.byteLength * 1.5)) + 1024;
    if (bytes > this.maxBytes / 4) return;
    this.pages.set(key, { siteId, page, bytes, storedAt: this.now(), read: false });
    this.sites.add(siteId, key);
    this.bytes += bytes;
    while (this.bytes > this.maxBytes && this.pages.size > 1) this.evictOldest(key);
  }

  /**
   * Second chance (the CLOCK approximation of least recently used): the oldest page goes,
   * unless it was read since it was stored or last passed over here. A read page is unmarked
   * and moves to the newest place, and the next oldest is looked at. `kept`, the page being
   * stored, is passed over too: it is not evicted to make room for itself.
   */
  private evictOldest(kept: string): void {
    for (;;) {
      const [key, entry] = this.pages.entries().next().value as [string, Entry];
      if (!entry.read && key !== kept) {
        this.remove(key);
        return;
      }
      entry.read = false;
      this.pages.delete(key);
      this.pages.set(key, entry);
    }
  }

  dropSite(siteId: string): void {
    for (const k of this.sites.take(siteId)) this.remove(k);
  }

  clear(): void {
    this.pages.clear();
    this.sites.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.pages.size;
  }

  /** What the kept pages are counted as, against the budget. */
  get byteSize(): number {
    return this.bytes;
  }

  private remove(key: string): void {
    const entry = this.pages.get(key);
    if (!entry) return;
    this.pages.delete(key);
    this.bytes -= entry.bytes;
    this.sites.delete(entry.siteId, key);
  }
}
