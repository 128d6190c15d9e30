// The back office in the browser: signed out goes to /login; an author sees demo mode (sample
// figures, the yellow banner, copy buttons); staff see real accounts, and a ticket an author
// files on the Help screen reaches an open Support tab's count without a reload, is answered
// there, and the answer shows on the author's Help screen.
import { and, eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { setRole } from "../src/app/cli/admin.ts";
import { exchangeRates, supportTickets, websiteAnalytics, websites } from "../src/db/schema/index.ts";
import { RATE_OUT_OF_RANGE } from "../src/shared/schemas/admin.ts";
import { createAuthor } from "../src/testing/users.ts";
import {
  browserDescribe,
  createAuthorAccount,
  createVerifiedUser,
  newPage,
  setupE2E,
  shot,
  signInThroughUi,
} from "./fixtures.ts";

const e = setupE2E();

async function signedIn(email: string): Promise<Page> {
  const page = await newPage(e);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInThroughUi(page, email);
  await page.waitForURL((u) => u.pathname !== "/login");
  return page;
}

browserDescribe("back office", () => {
  it("sends a signed-out visitor to sign in", async () => {
    const page = await newPage(e);
    await page.goto("/admin/users");
    await page.waitForURL((u) => u.pathname === "/login");
  });

  it("shows an author demo mode: sample figures, the setup steps and copy buttons, no real data", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await signedIn(author.email);
    let realData = 0;
    page.on("response", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/api/admin/") && path !== "/api/admin/access" && r.status() === 200) realData++;
    });
    await page.goto("/admin");
    await page.getByRole("heading", { name: "Bookplate Admin" }).waitFor();
    await page.getByText("Super User Dashboard").waitFor();
    const banner = page.getByRole("region", { name: "Demo Mode" });
    await banner.waitFor();
    await banner.getByText(`npm run admin -- grant ${author.email} super_admin`).waitFor();
    await banner.getByRole("button", { name: "Copy user ID" }).click();
    await page.getByText("User ID copied to clipboard!").waitFor();
    await banner.getByRole("button", { name: "Copy SQL" }).click();
    await page.getByText("SQL copied to clipboard!").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
      "update \"user\" set role = 'super_admin'",
    );
    await page.getByText("Revenue this month").waitFor();
    await shot(page, "admin-demo-overview");
    await page.getByRole("link", { name: "Users" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/users");
    await page.getByText("maya.thornton@example.com").waitFor();
    expect(realData).toBe(0);
  });

  it("lets staff run it: tabs with URLs, accounts, and a ticket answered live", async () => {
    const staff = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, staff.email, "super_admin");
    const author = await createAuthorAccount(e.server);
    const admin = await signedIn(staff.email);

    // An unknown tab falls back to the overview.
    await admin.goto("/admin/nonsense");
    await admin.getByText("Revenue this month").waitFor();
    expect(await admin.getByRole("region", { name: "Demo Mode" }).count()).toBe(0);
    expect(await admin.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");
    await shot(admin, "admin-overview");

    await admin.getByRole("link", { name: "Users" }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/users");
    await admin.getByLabel("Search").fill(author.subdomain);
    await admin.waitForURL((u) => u.searchParams.get("q") === author.subdomain);
    // The previous page stays on screen until the search answers: wait for the new total.
    await admin.getByText("1 account · page 1 of 1").waitFor();
    const rows = admin.getByRole("table", { name: "Accounts" }).getByRole("row");
    await rows.filter({ hasText: author.email }).waitFor();
    expect(await rows.count()).toBe(2); // the header and the one match
    await shot(admin, "admin-users");

    await admin.getByRole("link", { name: "Financial" }).click();
    await admin.getByRole("heading", { name: "Exchange Rates" }).waitFor();
    await shot(admin, "admin-financial");
    await admin.getByRole("link", { name: "Analytics" }).click();
    await admin.getByRole("heading", { name: "Top Performing Websites" }).waitFor();
    await shot(admin, "admin-analytics");
    await admin.getByRole("link", { name: "Settings" }).click();
    await admin.getByRole("button", { name: "Recalculate Metrics" }).click();
    await admin.getByText("System metrics updated successfully").waitFor();
    await admin.getByText("Database Healthy").or(admin.getByText("Database")).first().waitFor();
    await shot(admin, "admin-settings");

    await admin.getByRole("link", { name: "Support" }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/support");
    const banner = admin.getByTestId("open-tickets");
    await banner.waitFor();
    const before = (await banner.textContent()) ?? "";
    const openBefore = /(\d+) open/.exec(before)?.[1] ? Number(/(\d+) open/.exec(before)?.[1]) : 0;

    // The author asks for help on their own screen, in another browser.
    const reader = await signedIn(author.email);
    await reader.goto("/dashboard/help");
    await reader.getByRole("button", { name: "Send" }).click();
    await reader.getByText("Subject is required").waitFor();
    await reader.getByLabel("Subject").fill("Where is my sitemap?");
    await reader.getByLabel("Priority").selectOption("high");
    await reader.getByLabel("Message").fill("Google asks for it.");
    await reader.getByRole("button", { name: "Send" }).click();
    await reader.getByText("Thanks! We'll get back to you soon.").waitFor();
    await shot(reader, "help-filed");

    // The admin page, never reloaded, counts it and lists it.
    const expected = openBefore + 1;
    await banner.filter({ hasText: expected === 1 ? "1 open ticket" : `${expected} open tickets` }).waitFor();
    const ticket = admin.getByRole("listitem").filter({ hasText: "Where is my sitemap?" });
    await ticket.waitFor();
    await ticket.getByText("Where is my sitemap?").click();
    await ticket.getByLabel("Response").fill("It is at /sitemap.xml on your site.");
    await ticket.getByRole("button", { name: "Respond" }).click();
    await admin.getByText("Response sent").waitFor();
    await shot(admin, "admin-support");

    await reader.reload();
    await reader.getByText("It is at /sitemap.xml on your site.").waitFor();
    await reader.getByText("Answered").waitFor();
    await shot(reader, "help-answered");
  });

  it("sends staff without a site of their own to the back office after sign-in, authors to the wizard", async () => {
    const staff = await createVerifiedUser(e.server, { name: "Sam Staff" });
    await setRole(e.server.database.db, staff.email, "admin");
    const page = await newPage(e);
    await signInThroughUi(page, staff.email);
    await page.waitForURL((u) => u.pathname === "/admin");
    await page.getByText("Revenue this month").waitFor();

    const newcomer = await createVerifiedUser(e.server, { name: "New Author" });
    const other = await newPage(e);
    await signInThroughUi(other, newcomer.email);
    await other.waitForURL((u) => u.pathname === "/onboarding");
  });

  it("keeps the Overview's open-ticket count live, like the Support tab", async () => {
    const staff = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, staff.email, "admin");
    const author = await createAuthor(e.server);
    const admin = await signedIn(staff.email);
    await admin.goto("/admin");
    const card = admin.getByTestId("overview-open-tickets");
    await card.getByText("Updates live").waitFor();
    const figure = async () => Number((await card.locator("p").nth(1).textContent())?.replace(/,/g, ""));
    await expect.poll(figure).toBe(await openTickets());
    const before = await figure();
    const filed = await e.server.api("/api/support/tickets", {
      method: "POST",
      cookie: author.cookie,
      json: { subject: "Live on the overview?", message: "Count me", priority: "urgent" },
    });
    expect(filed.status).toBe(201);
    // Never reloaded: the count arrives over the event stream.
    await expect.poll(figure, { timeout: 10_000 }).toBe(before + 1);
    expect(await figure()).toBe(await openTickets());
  });

  it("gives staff a true toast for every account action, and marks a trial whose checkout never completed", async () => {
    const boss = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, boss.email, "super_admin");
    const promoted = await createAuthorAccount(e.server);
    const unpaid = await createAuthorAccount(e.server, { checkout: false });
    const admin = await signedIn(boss.email);
    const row = async (email: string) => {
      await admin.goto(`/admin/users?q=${encodeURIComponent(email)}`);
      const r = admin.getByRole("table", { name: "Accounts" }).getByRole("row").filter({ hasText: email });
      await r.waitFor();
      return r;
    };

    let r = await row(promoted.email);
    // The link goes to the live site, not the noindex preview.
    expect(await r.getByRole("link").getAttribute("href")).toBe(
      `http://${promoted.subdomain}.localhost:${e.server.port}/`,
    );
    await expect.poll(() => r.getByText("trial", { exact: true }).count()).toBe(1);
    await r.getByLabel(`Role of ${promoted.email}`).selectOption("admin");
    await admin.getByText(`${promoted.email} is now admin`).waitFor();
    await r.getByText("Admin", { exact: true }).waitFor();

    await r.getByRole("button", { name: "Ban" }).click();
    await admin.getByRole("dialog").getByRole("button", { name: "Ban" }).click();
    await admin.getByText(`${promoted.email} is banned`).waitFor();
    await r.getByRole("button", { name: "Unban" }).click();
    await admin.getByText(`${promoted.email} is unbanned`).waitFor();
    await r.getByRole("button", { name: "Ban" }).waitFor();
    await r.getByRole("button", { name: "Send password reset" }).click();
    await admin.getByText(`Password reset sent to ${promoted.email}`).waitFor();

    r = await row(unpaid.email);
    await r.getByText("Checkout not completed").waitFor();
    expect(await r.getByText("trial", { exact: true }).count()).toBe(0);
    await shot(admin, "admin-users-unpaid-trial");
  });

  it("refuses an absurd exchange rate in the form and keeps the old one", async () => {
    const boss = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, boss.email, "super_admin");
    const admin = await signedIn(boss.email);
    const usd = async () =>
      (
        await e.server.database.db
          .select({ rate: sql<string>`${exchangeRates.rate}::text` })
          .from(exchangeRates)
          .where(and(eq(exchangeRates.fromCurrency, "USD"), eq(exchangeRates.toCurrency, "GBP")))
      )[0]?.rate;
    const before = await usd();
    await admin.goto("/admin/financial");
    const rates = admin.getByRole("row").filter({ hasText: "USD → GBP" });
    await rates.getByRole("button", { name: "Edit" }).click();
    await rates.getByLabel("Rate USD to GBP").fill("1000000");
    await rates.getByRole("button", { name: "Save" }).click();
    await admin.getByRole("alert").filter({ hasText: RATE_OUT_OF_RANGE }).waitFor();
    expect(await admin.getByText("Exchange rate USD → GBP updated").count()).toBe(0);
    expect(await usd()).toBe(before);
    await shot(admin, "admin-financial-bad-rate");

    await rates.getByLabel("Rate USD to GBP").fill("0.7912");
    await rates.getByRole("button", { name: "Save" }).click();
    await admin.getByText("Exchange rate USD → GBP updated").waitFor();
    expect(Number(await usd())).toBe(0.7912);
  });

  it("links Analytics' top sites to their live address", async () => {
    const staff = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, staff.email, "admin");
    const author = await createAuthorAccount(e.server);
    const [site] = await e.server.database.db.select().from(websites).where(eq(websites.subdomain, author.subdomain));
    if (!site) throw new Error("no site");
    await e.server.database.db.insert(websiteAnalytics).values({
      websiteId: site.id,
      date: new Date().toISOString().slice(0, 10),
      pageViews: 100_000,
      uniqueVisitors: 9,
    });
    const admin = await signedIn(staff.email);
    await admin.goto("/admin/analytics");
    const top = admin.getByRole("listitem").filter({ hasText: site.websiteName });
    const link = top.getByRole("link");
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`http://${author.subdomain}.localhost:${e.server.port}/`);
  });

  it("fits every tab on a phone (390 px): no sideways scrolling of the page", async () => {
    const staff = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, staff.email, "super_admin");
    const author = await createAuthor(e.server);
    await e.server.api("/api/support/tickets", {
      method: "POST",
      cookie: author.cookie,
      json: { subject: "A rather long subject line about my custom domain", message: "Help", priority: "urgent" },
    });
    const admin = await signedIn(staff.email);
    await admin.setViewportSize({ width: 390, height: 844 });
    const ready: Record<string, string> = {
      overview: "Revenue this month",
      users: "Send password reset",
      financial: "Exchange Rates",
      analytics: "Top Performing Websites",
      support: "A rather long subject line about my custom domain",
      settings: "System Health",
    };
    for (const [tab, text] of Object.entries(ready)) {
      await admin.goto(`/admin/${tab}`);
      await admin.getByText(text, { exact: true }).first().waitFor();
      await shot(admin, `admin-${tab}-phone`, { viewport: true });
      const widths = await admin.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
      }));
      expect(widths.page, tab).toBeLessThanOrEqual(widths.window);
    }
  });
});

/** Open tickets, counted from the rows. */
async function openTickets(): Promise<number> {
  return (await e.server.database.db.select().from(supportTickets).where(eq(supportTickets.status, "open"))).length;
}
