// The Stats screen in the browser: a reader browses the author's public site (a real browser,
// arriving from a search engine), the counts are written, and the author sees the visits, the
// pages and where the reader came from; another author's Stats stay empty.
import { expect, it } from "vitest";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("author stats", () => {
  it("shows the site's visits, top pages and referring sites, for the chosen period", async () => {
    const author = await createAuthorAccount(e.server);
    const stranger = await createAuthorAccount(e.server);

    // A reader: lands on the home page from a search, then opens Contact through the menu (a new
    // site's menu has Home and Contact only until the author writes more, ADR 052).
    // Headless Chromium says so in its user agent, which counts as a robot: a reader's browser.
    const reader = await e.browser.newContext({
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    });
    const site = await reader.newPage();
    const origin = `http://${author.subdomain}.localhost:${e.server.port}`;
    await site.goto(`${origin}/`, { referer: "https://www.google.com/" });
    await site.getByRole("navigation").getByRole("link", { name: "Contact", exact: true }).first().click();
    await site.waitForURL(`${origin}/contact`);
    await reader.close();
    await e.server.sites.flushVisits();

    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Stats" }).click();
    await page.getByRole("heading", { name: "Stats", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/stats");

    const views = page.getByText("Page views", { exact: true }).locator("..");
    await views.getByText("2", { exact: true }).waitFor();
    const visitors = page.getByText("Visitors", { exact: true }).locator("..");
    await visitors.getByText("1", { exact: true }).waitFor();
    await views.getByText("Last 30 days").waitFor();
    const pages = page.getByRole("list", { name: "Most visited pages" });
    expect(await pages.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringMatching(/Home\s+1 views/),
      expect.stringMatching(/Contact\s+1 views/),
    ]);
    // The menu click came from the site itself: one arrival, from the search engine.
    const from = page.getByRole("list", { name: "Where readers came from" });
    expect(await from.getByRole("listitem").allInnerTexts()).toEqual([expect.stringMatching(/google\.com\s+1 visits/)]);

    await page.getByRole("button", { name: "7 days" }).click();
    await page.waitForURL((url) => url.searchParams.get("days") === "7");
    await views.getByText("Last 7 days").waitFor();
    expect(await page.getByRole("button", { name: "7 days" }).getAttribute("aria-pressed")).toBe("true");

    // Another author: nothing of this site.
    const other = await e.browser.newContext({ baseURL: e.server.url });
    const theirs = await other.newPage();
    await signInThroughUi(theirs, stranger.email);
    await theirs.waitForURL((url) => url.pathname === "/dashboard");
    await theirs.goto("/dashboard/stats");
    await theirs.getByRole("heading", { name: "No visits yet" }).waitFor();
    await other.close();
  });
});
