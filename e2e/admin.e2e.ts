// The back office in the browser: signed out goes to /login; an author sees demo mode (sample
// figures, the yellow banner, copy buttons); staff see real accounts, and a ticket an author
// files on the Help screen reaches an open Support tab's count without a reload, is answered
// there, and the answer shows on the author's Help screen.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { setRole } from "../src/server/cli/admin.ts";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

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
});
