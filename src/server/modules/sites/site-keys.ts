// Which kept entries belong to which site. Both per-process caches of a site's data, the rendered
// pages (page-cache.ts) and the site contexts (context-cache.ts), drop a site's entries as a whole
// when it changes.
export class SiteKeys {
  private readonly bySite = new Map<string, Set<string>>();

  add(siteId: string, key: string): void {
    let keys = this.bySite.get(siteId);
    if (!keys) {
      keys = new Set();
      this.bySite.set(siteId, keys);
    }
    keys.add(key);
  }

  delete(siteId: string, key: string): void {
    const keys = this.bySite.get(siteId);
    keys?.delete(key);
    if (keys?.size === 0) this.bySite.delete(siteId);
  }

  /** A site's keys, forgotten here: the caller removes their entries. */
  take(siteId: string): Iterable<string> {
    const keys = this.bySite.get(siteId);
    this.bySite.delete(siteId);
    return keys ?? [];
  }

  clear(): void {
    this.bySite.clear();
  }
}
