import { describe, expect, it } from "vitest";
import type { SectionState, SiteStatus } from "../../shared/schemas/site-status.ts";
import { type ChecklistFacts, checklistItems } from "./empty-sections.tsx";

const section = (hasContent: boolean, shown = hasContent): SectionState => ({
  enabled: true,
  hasContent,
  showWhenEmpty: false,
  shown,
});

const newSite: SiteStatus = {
  visibility: "live",
  sections: { books: section(false), about: section(false), blog: section(false), newsletter: section(false) },
  genreMissing: true,
  privacyGenerated: true,
  checklistHidden: false,
};
const newFacts: ChecklistFacts = { profile: { bio: "", authorPhotoUrl: null }, domainConnected: false };
const done = (status: SiteStatus, facts: ChecklistFacts) =>
  checklistItems(status, facts)
    .filter((i) => i.done)
    .map((i) => i.key);

describe("getting-started checklist", () => {
  it("lists the five steps in order, none done on a new site, each linking to its screen", () => {
    const items = checklistItems(newSite, newFacts);
    expect(items.map((i) => [i.key, i.to])).toEqual([
      ["books", "/dashboard/books"],
      ["about", "/dashboard/bio"],
      ["privacy", "/dashboard/legal"],
      ["newsletter", "/dashboard/newsletter"],
      ["domain", "/dashboard/domain"],
    ]);
    expect(items.filter((i) => i.done)).toEqual([]);
    // An open item says what the empty-sections line says.
    expect(items[1]?.text).toBe("No bio yet: your About page is hidden from readers.");
  });

  it("ticks each step from its own fact only", () => {
    const s = newSite.sections;
    expect(done({ ...newSite, sections: { ...s, books: section(true) } }, newFacts)).toEqual(["books"]);
    expect(done({ ...newSite, privacyGenerated: false }, newFacts)).toEqual(["privacy"]);
    // The site's own sign-up form shown counts; a switched-on but empty section does not.
    expect(done({ ...newSite, sections: { ...s, newsletter: section(false, true) } }, newFacts)).toEqual([
      "newsletter",
    ]);
    expect(done(newSite, { ...newFacts, domainConnected: true })).toEqual(["domain"]);
    // Photo and bio needs both: a bio of empty markup is no bio.
    expect(done(newSite, { ...newFacts, profile: { bio: "<p>I write.</p>", authorPhotoUrl: null } })).toEqual([]);
    expect(done(newSite, { ...newFacts, profile: { bio: "<p> </p>", authorPhotoUrl: "https://x/p.jpg" } })).toEqual([]);
    expect(
      checklistItems(newSite, { ...newFacts, profile: { bio: "<p>I write.</p>", authorPhotoUrl: null } })[1]?.text,
    ).toBe("No photo yet: your About page shows your initials.");
    expect(
      done(newSite, { ...newFacts, profile: { bio: "<p>I write.</p>", authorPhotoUrl: "https://x/p.jpg" } }),
    ).toEqual(["about"]);
  });

  it("is all done when every fact is in", () => {
    const all: SiteStatus = {
      ...newSite,
      sections: { ...newSite.sections, books: section(true), about: section(true), newsletter: section(true) },
      privacyGenerated: false,
    };
    const facts: ChecklistFacts = {
      profile: { bio: "<p>I write.</p>", authorPhotoUrl: "/uploads/p.webp" },
      domainConnected: true,
    };
    expect(checklistItems(all, facts).every((i) => i.done)).toBe(true);
  });
});
