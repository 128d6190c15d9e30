// What the visit counter keeps per site between two writes (ADR 007, 032, 085), and how a view
// adds to it.

/**
 * A site's day since the last write: views, the readers seen since (browsers by address), and
 * views per page path and per referring site. Keyed by the strings the request brings, so that a
 * view adds to maps without building a key.
 */
export type Pending = {
  websiteId: string;
  day: string;
  views: number;
  readers: Map<string, Set<string>>;
  pages: Map<string, Tally>;
  sources: Map<string, Tally>;
  /** Per book and store (`bookId\u0000store`): views whose buy box showed that store first. */
  stores: Map<string, Tally>;
  /**
   * The reader (address and browser) added last, and the page path counted last with its tally: a
   * site is mostly asked by the same reader, for the same page, again. Such a view then touches
   * this object and the tally only, not the maps and sets (with a thousand sites in turn, each a
   * few cache misses).
   */
  lastAddress: string | undefined;
  lastBrowser: string | undefined;
  lastPath: string | undefined;
  lastPage: Tally | undefined;
};

/** A count kept in a map: a view adds to it in place (one lookup, the map itself unchanged). */
export type Tally = { n: number };

export function tally(map: Map<string, Tally>, key: string): Tally {
  let t = map.get(key);
  if (t) t.n++;
  else {
    t = { n: 1 };
    map.set(key, t);
  }
  return t;
}

/** A site's counts for `day`, none yet. */
export function newPending(websiteId: string, day: string): Pending {
  return {
    websiteId,
    day,
    views: 0,
    readers: new Map(),
    pages: new Map(),
    sources: new Map(),
    stores: new Map(),
    lastAddress: undefined,
    lastBrowser: undefined,
    lastPath: undefined,
    lastPage: undefined,
  };
}

/** A reader seen (kept as it came until the next write, which sends each reader once a day). */
export function addReader(p: Pending, address: string, browser: string): void {
  if (address === p.lastAddress && browser === p.lastBrowser) return;
  let browsers = p.readers.get(address);
  if (!browsers) {
    browsers = new Set();
    p.readers.set(address, browsers);
  }
  browsers.add(browser);
  p.lastAddress = address;
  p.lastBrowser = browser;
}

/** A view of the page at `path`. */
export function countPage(p: Pending, path: string): void {
  if (path === p.lastPath && p.lastPage) p.lastPage.n++;
  else {
    p.lastPage = tally(p.pages, path);
    p.lastPath = path;
  }
}
