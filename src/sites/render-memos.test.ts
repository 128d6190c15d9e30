// What a render works out once and reuses (ADR 080) must answer as if worked out afresh: the
// sections by the site's kept objects, days to a release without date strings, dates by their text.
import { describe, expect, it } from "vitest";
import { daysUntil, nextDayStarts } from "../server/modules/books/launches.service.ts";
import { type SiteContext, sectionShown } from "../server/modules/sites/sites.service.ts";
import { formatDate } from "../shared/dates.ts";

const website = {
  booksEnabled: true,
  aboutEnabled: true,
  newsEnabled: true,
  newsletterEnabled: false,
  showWhenEmpty: [],
};
const profile = (bio: string) => ({ bio, writingJourney: [], authorPhotoUrl: null });
const ctx = (p: ReturnType<typeof profile>, hasPosts: boolean) =>
  ({ website, profile: p, customization: null, hasVisibleBooks: true, hasPosts }) as unknown as SiteContext;

describe("what a render reuses", () => {
  it("works the sections out again when anything they read is another object or value", () => {
    const empty = profile("");
    expect(sectionShown(ctx(empty, false), "about")).toBe(false);
    expect(sectionShown(ctx(empty, false), "blog")).toBe(false);
    // The same website object, a new profile (the row read again after the bio was written).
    expect(sectionShown(ctx(profile("<p>Now a bio.</p>"), false), "about")).toBe(true);
    expect(sectionShown(ctx(empty, true), "blog")).toBe(true);
    expect(sectionShown(ctx(empty, false), "about")).toBe(false);
  });

  it("counts days to a release as from the day's date, at any time of day", () => {
    const DAY = 86_400_000;
    const old = (release: string, now: Date) =>
      Math.round(
        (Date.parse(`${release}T00:00:00Z`) - Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)) / DAY,
      );
    for (const t of [
      "2026-11-27T00:00:00.000Z",
      "2026-11-27T23:59:59.999Z",
      "2024-02-29T12:00:00Z",
      "1969-12-31T23:00:00Z",
    ]) {
      const now = new Date(t);
      for (const release of ["2026-11-27", "2026-11-28", "2024-03-01", "1970-01-01", "2030-01-01"])
        expect(daysUntil(release, now)).toBe(old(release, now));
      expect(nextDayStarts(now)).toBe(Date.parse(`${t.slice(0, 10)}T00:00:00Z`) + DAY);
    }
    expect(daysUntil("2026-13-45", new Date())).toBeNaN();
    expect(daysUntil("soon", new Date())).toBeNull();
  });

  it("formats a date given as text as the same date given as a Date", () => {
    for (const day of ["2024-01-01", "2026-11-27", "1999-12-31"]) {
      for (const style of ["short", "long"] as const) {
        const asDate = formatDate(new Date(`${day}T00:00:00Z`), style);
        expect(formatDate(day, style)).toBe(asDate);
        expect(formatDate(day, style)).toBe(asDate); // and again, from what was kept
      }
    }
    expect(formatDate("2024-01-01", "long")).toBe("1 January 2024");
    expect(formatDate("not a date")).toBe("");
  });
});
