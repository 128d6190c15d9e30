import { describe, expect, it } from "vitest";
import { SiteContextCache } from "./context-cache.ts";

type Row = { website: { subdomain: string; bio: string } };
const row = (subdomain: string, bio = "") => ({ website: { subdomain, bio } });

function keep(cache: SiteContextCache<Row>, key: string, siteId: string, r: Row) {
  cache.reading(key)(siteId, r);
}

describe("SiteContextCache", () => {
  it("keeps a row per lookup and drops every lookup of one site, and only that site", () => {
    const cache = new SiteContextCache<Row>();
    keep(cache, "s:jane", "a", row("jane"));
    keep(cache, "d:jane.example", "a", row("jane"));
    keep(cache, "s:tom", "b", row("tom"));
    expect(cache.get("s:jane")?.website.subdomain).toBe("jane");
    cache.dropSite("a");
    expect(cache.get("s:jane")).toBeUndefined();
    expect(cache.get("d:jane.example")).toBeUndefined();
    expect(cache.get("s:tom")?.website.subdomain).toBe("tom");
    expect(cache.size).toBe(1);
  });

  it("does not keep a row read while a change was being dropped", () => {
    const cache = new SiteContextCache<Row>();
    const done = cache.reading("s:jane");
    // A change to another site still counts: the read cannot tell which rows it saw before it.
    cache.dropSite("b");
    done("a", row("jane", "old"));
    expect(cache.get("s:jane")).toBeUndefined();
    keep(cache, "s:jane", "a", row("jane", "new"));
    expect(cache.get("s:jane")?.website.bio).toBe("new");
    const late = cache.reading("s:jane");
    cache.clear();
    late("a", row("jane", "old"));
    expect(cache.size).toBe(0);
  });

  it("stays within its budget: when full it keeps what it has until rows age out, and refuses a row too big", () => {
    let now = 1_000;
    // Each row counts about 3.1 k characters of the 13 k budget: four fit.
    const cache = new SiteContextCache<Row>(13_000, 60_000, () => now);
    for (const n of [1, 2, 3, 4, 5]) keep(cache, `s:${n}`, String(n), row(String(n), "x".repeat(1000)));
    expect(cache.size).toBe(4);
    expect(cache.get("s:1")).toBeDefined();
    expect(cache.get("s:5")).toBeUndefined();
    // A site's change makes room at once; age does too.
    cache.dropSite("1");
    keep(cache, "s:5", "5", row("5", "x".repeat(1000)));
    expect(cache.get("s:5")).toBeDefined();
    now += 61_000;
    keep(cache, "s:6", "6", row("6", "x".repeat(1000)));
    expect(cache.get("s:6")).toBeDefined();
    expect(cache.size).toBe(1);
    keep(cache, "s:huge", "h", row("huge", "x".repeat(2000)));
    expect(cache.get("s:huge")).toBeUndefined();
  });

  it("forgets a row older than its safety-net age", () => {
    let now = 1_000;
    const cache = new SiteContextCache<Row>(1_000_000, 60_000, () => now);
    keep(cache, "s:jane", "a", row("jane"));
    now += 59_000;
    expect(cache.get("s:jane")).toBeDefined();
    now += 2_000;
    expect(cache.get("s:jane")).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
