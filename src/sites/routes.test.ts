// The table of page kinds (ADR 057) on its own, without a server: which kind answers which method
// at which path, where paths overlap and where a site has a section off. The answers themselves
// are tested through real requests in sites.test.ts and its neighbours.
import { describe, expect, it } from "vitest";
import type { SiteContext } from "../server/modules/sites/sites.service.ts";
import type { PageEnv } from "./pages/layout.tsx";
import { PAGE_KINDS, pageFor } from "./routes.ts";

function site(website: Record<string, unknown> = {}, readOnly = false): PageEnv {
  const ctx = {
    website: {
      booksEnabled: true,
      aboutEnabled: true,
      newsEnabled: true,
      newsletterEnabled: true,
      contactEnabled: true,
      showWhenEmpty: ["books", "about", "blog", "newsletter"],
      ...website,
    },
    profile: { bio: "<p>Bio</p>", writingJourney: [], authorPhotoUrl: null },
    customization: null,
    legal: null,
  } as unknown as SiteContext;
  return { ctx, mode: readOnly ? "demo" : "tenant", readOnly } as unknown as PageEnv;
}
const kindOf = (method: "get" | "post", path: string, env = site()) => pageFor(method, path, env)?.kind.name ?? null;

describe("the table of page kinds", () => {
  it("names each kind once", () => {
    const names = PAGE_KINDS.map((k) => k.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("sends a path to its kind, by method", () => {
    expect(kindOf("get", "/")).toBe("home");
    expect(kindOf("get", "/book/the-salt-road")).toBe("book");
    expect(kindOf("get", "/blog/first-post")).toBe("blog post");
    expect(kindOf("get", "/newsletter/confirm")).toBe("Newsletter confirmation link");
    expect(kindOf("post", "/newsletter/confirm")).toBe("Newsletter confirmation link");
    expect(kindOf("post", "/alerts/confirm")).toBe("Release alert confirmation link");
    expect(kindOf("get", "/unsubscribe")).toBe("unsubscribe link");
    expect(kindOf("post", "/unsubscribe")).toBe("unsubscribe link");
    expect(kindOf("get", "/nope")).toBeNull();
  });

  it("gives overlapping addresses to the narrower kind", () => {
    expect(kindOf("get", "/book/the-salt-road/buy/123")).toBe("store link");
    expect(kindOf("post", "/book/the-salt-road/alert")).toBe("release alert sign-up");
    // No GET for the alert: the book kind takes it (and finds no such book).
    expect(kindOf("get", "/book/the-salt-road/alert")).toBe("book");
  });

  it("finds nothing for a method a kind does not take: 405 for a POST, 404 for a GET", () => {
    expect(kindOf("post", "/about")).toBeNull();
    expect(kindOf("post", "/book/the-salt-road")).toBeNull();
    expect(kindOf("get", "/cookie-consent")).toBeNull();
    expect(kindOf("post", "/cookie-consent")).toBe("cookie banner's choice");
  });

  it("matches nothing in a section the site has off", () => {
    const off = site({ booksEnabled: false, aboutEnabled: false, newsEnabled: false, contactEnabled: false });
    for (const path of ["/books", "/book/x", "/book/x/buy/1", "/series/x", "/about", "/blog", "/blog/x", "/rss.xml"])
      expect(kindOf("get", path, off), path).toBeNull();
    expect(kindOf("post", "/book/x/alert", off)).toBeNull();
    expect(kindOf("get", "/contact", off)).toBeNull();
    expect(kindOf("get", "/robots.txt", off)).toBe("robots.txt");
    // A reader can leave a list whatever the site shows now.
    expect(kindOf("post", "/unsubscribe", off)).toBe("unsubscribe link");
    // A counted newsletter link still leads on (ADR 069); it takes no POST.
    expect(kindOf("get", "/go/x.y.z", off)).toBe("newsletter link");
    expect(kindOf("post", "/go/x.y.z", off)).toBeNull();
  });

  it("answers the demo's forms read-only, even where the section is off, and its pages as usual", () => {
    const demo = site({ contactEnabled: false }, true);
    expect(kindOf("post", "/contact", demo)).toBe("demo form (read-only)");
    expect(kindOf("post", "/newsletter", demo)).toBe("demo form (read-only)");
    expect(kindOf("get", "/newsletter", demo)).toBe("newsletter");
    expect(kindOf("post", "/cookie-consent", demo)).toBe("cookie banner's choice");
  });
});
