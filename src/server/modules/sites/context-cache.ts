// The site context (the one query behind every page of a site, sites.queries.ts) of sites read
// lately, so that a page the page cache does not hold costs one database round trip, not two
// (ADR 040). Kept and dropped like the rendered pages: per site, on the site's change notice and
// the sweep (src/sites/runtime.ts), with the same safety-net age. It holds the row as read; what
// depends on the clock (a cancelled plan's end) is worked out per request (sites.service.ts).
// Only sites that exist are kept: a subdomain claimed a moment ago must answer at once. When the
// budget is full nothing is evicted: new rows wait for room (see `set`).

import { SiteKeys } from "./site-keys.ts";

type Entry<Row> = { siteId: string; row: Row; chars: number; storedAt: number };

/** What an entry is counted as: the characters of its text, and a little for everything else. */
function charsOf(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (value === null || typeof value !== "object" || value instanceof Date) return 8;
  let n = 16;
  for (const v of Array.isArray(value) ? value : Object.values(value)) n += charsOf(v);
  return n;
}

export class SiteContextCache<Row> {
  private readonly rows = new Map<string, Entry<Row>>();
  private readonly sites = new SiteKeys();
  private chars = 0;
  /** Counts drops: a row read while a change was under way is not kept (see `reading`). */
  private epoch = 0;

  /**
   * @param maxChars the budget, in characters of the rows' text (an author's bio, home page and
   *   privacy page are most of a row)
   * @param maxAgeMs safety net, as for the page cache: a row is normally dropped by its site's
   *   change notice; when the budget is full, also what makes room
   */
  constructor(
    private readonly maxChars = 8_000_000,
    private readonly maxAgeMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept row for a lookup key, or undefined. */
  get(key: string): Row | undefined {
    const entry = this.rows.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.maxAgeMs) {
      this.remove(key);
      return undefined;
    }
    return entry.row;
  }

  /**
   * Call before reading a row from the database; the function it returns keeps what was read,
   * unless some site was dropped in between: the read may have seen the data from before a change
   * whose notice has already been handled, and keeping it would outlive the notice.
   */
  reading(key: string): (siteId: string, row: Row) => void {
    const epoch = this.epoch;
    return (siteId, row) => {
      if (this.epoch === epoch) this.set(key, siteId, row);
    };
  }

  private set(key: string, siteId: string, row: Row): void {
    this.remove(key);
    this.expireOldest();
    // Full: what is kept stays until it ages out or its site changes. Evicting the oldest instead
    // would, under requests that go round more sites than fit, replace every row before it is
    // read again: all cost (each row kept long enough to be promoted, then collected), no gain.
    if (this.chars >= this.maxChars) return;
    // About 2 k more for the row's objects, dates and the entry itself.
    const chars = charsOf(row) + key.length + 2048;
    // One huge row (a book-length privacy page) would take the room of many sites.
    if (chars > this.maxChars / 4 || this.chars + chars > this.maxChars) return;
    this.rows.set(key, { siteId, row, chars, storedAt: this.now() });
    this.sites.add(siteId, key);
    this.chars += chars;
  }

  /** Rows are kept in the order they were read (a Map iterates in insertion order): oldest first. */
  private expireOldest(): void {
    const now = this.now();
    for (const [key, entry] of this.rows) {
      if (now - entry.storedAt <= this.maxAgeMs) break;
      this.remove(key);
    }
  }

  dropSite(siteId: string): void {
    this.epoch++;
    for (const k of this.sites.take(siteId)) this.remove(k);
  }

  clear(): void {
    this.epoch++;
    this.rows.clear();
    this.sites.clear();
    this.chars = 0;
  }

  get size(): number {
    return this.rows.size;
  }

  private remove(key: string): void {
    const entry = this.rows.get(key);
    if (!entry) return;
    this.rows.delete(key);
    this.chars -= entry.chars;
    this.sites.delete(entry.siteId, key);
  }
}
