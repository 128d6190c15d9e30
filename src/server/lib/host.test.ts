import { describe, expect, it } from "vitest";
import { isSpaRoute } from "../../shared/app-routes.ts";
import { classifyHost } from "./host.ts";

const local = { appHost: "localhost:3000", sitesDomain: "localhost:3000" };
const prod = { appHost: "app.bookplate.example", sitesDomain: "bookplate.site" };

describe("classifyHost", () => {
  it.each([
    ["localhost:3000", local, { kind: "app" }],
    ["LOCALHOST:3000", local, { kind: "app" }],
    ["jane.localhost:3000", local, { kind: "subdomain", subdomain: "jane" }],
    ["Jane.Localhost:3000", local, { kind: "subdomain", subdomain: "jane" }],
    ["a.b.localhost:3000", local, { kind: "unknown" }],
    ["jane.localhost:4000", local, { kind: "custom", domain: "jane.localhost" }],
    ["app.bookplate.example", prod, { kind: "app" }],
    ["jane.bookplate.site", prod, { kind: "subdomain", subdomain: "jane" }],
    ["jane.bookplate.site.", prod, { kind: "subdomain", subdomain: "jane" }],
    ["www.janeauthor.com", prod, { kind: "custom", domain: "www.janeauthor.com" }],
    ["janeauthor.com:443", prod, { kind: "custom", domain: "janeauthor.com" }],
    ["", prod, { kind: "unknown" }],
    ["bad_host!", prod, { kind: "unknown" }],
    ["<script>.bookplate.site", prod, { kind: "unknown" }],
  ] as const)("%s", (host, cfg, expected) => {
    expect(classifyHost(host, cfg)).toEqual(expected);
  });
});

describe("isSpaRoute", () => {
  it.each([
    // The home page is the marketing site's (server-rendered), not a screen of the app.
    ["/", false],
    ["/login", true],
    ["/login/", true],
    ["/dashboard/books", true],
    ["/edit-book/123", true],
    ["/edit-book/", false],
    ["/edit-book/1/2", false],
    ["/nope", false],
    ["/loginx", false],
  ])("%s → %s", (path, expected) => {
    expect(isSpaRoute(path)).toBe(expected);
  });
});
