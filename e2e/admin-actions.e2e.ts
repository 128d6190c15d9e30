// System Settings' Admin Actions in the browser (ADR 046): each button does the real thing —
// Refresh Analytics answers, Database Maintenance lists a new backup whose Download link gives
// the file, Generate Reports downloads the chosen month's CSV — with a toast each time; an admin
// who is not a super admin cannot start maintenance. Checked at 1280 and 390 px wide.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { setRole } from "../src/app/cli/admin.ts";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

async function signedIn(email: string): Promise<Page> {
  const page = await newPage(e);
  await signInThroughUi(page, email);
  await page.waitForURL((u) => u.pathname !== "/login");
  return page;
}

async function noHorizontalOverflow(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

browserDescribe("admin actions", () => {
  it("a super admin refreshes analytics, runs maintenance, downloads the backup and a report", async () => {
    const boss = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, boss.email, "super_admin");
    const page = await signedIn(boss.email);
    await page.goto("/admin/settings");
    await page.getByText("No backups yet.").waitFor();

    await page.getByRole("button", { name: "Refresh Analytics" }).click();
    await page.getByText("Analytics refreshed").waitFor();

    await page.getByRole("button", { name: "Database Maintenance" }).click();
    await page
      .getByText(/Database maintenance finished and a backup was taken: bookplate-/)
      .waitFor({ timeout: 60_000 });
    const list = page.getByRole("list", { name: "Backups" });
    const item = list.getByRole("listitem").first();
    await item.waitFor();
    const name = (await item.locator("span.font-medium").textContent()) ?? "";
    expect(name).toMatch(/^bookplate-.*\.tar\.gz$/);
    await expect.poll(() => item.textContent()).toMatch(/UTC · \d+(\.\d)? (KB|MB)/);

    const [backup] = await Promise.all([
      page.waitForEvent("download"),
      item.getByRole("link", { name: "Download" }).click(),
    ]);
    expect(backup.suggestedFilename()).toBe(name);
    const saved = readFileSync((await backup.path()) ?? "");
    expect([saved[0], saved[1]]).toEqual([0x1f, 0x8b]); // gzip

    const month = new Date().toISOString().slice(0, 7);
    await page.getByLabel("Month").fill(month);
    const [report] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Revenue CSV" }).click(),
    ]);
    expect(report.suggestedFilename()).toBe(`bookplate-revenue-${month}.csv`);
    expect(readFileSync((await report.path()) ?? "", "utf8")).toMatch(/^\uFEFFprocessed_at,transaction_id,/);
    await page.getByText(`Report downloaded: bookplate-revenue-${month}.csv`).waitFor();

    const [subs] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Subscriptions CSV" }).click(),
    ]);
    expect(readFileSync((await subs.path()) ?? "", "utf8")).toContain(boss.email);

    // Every action is in the audit log on the same page.
    await page.reload();
    for (const did of [
      "Refreshed analytics",
      "Ran database maintenance",
      "Downloaded a backup",
      "Downloaded a report",
    ]) {
      await page
        .getByRole("cell", { name: new RegExp(did) })
        .first()
        .waitFor();
    }
    await page.getByText("Admin Actions", { exact: true }).scrollIntoViewIfNeeded();
    await shot(page, "admin-actions-1280");
    await noHorizontalOverflow(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText("Admin Actions", { exact: true }).scrollIntoViewIfNeeded();
    await noHorizontalOverflow(page);
    await shot(page, "admin-actions-390");
  }, 120_000);

  it("an admin who is not a super admin cannot start maintenance; a bad month gets the message", async () => {
    const staff = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, staff.email, "admin");
    const page = await signedIn(staff.email);
    await page.goto("/admin/settings");
    await page.getByText("Super admin only.").waitFor();
    expect(await page.getByRole("button", { name: "Database Maintenance" }).isDisabled()).toBe(true);
    expect(await page.getByRole("link", { name: "Download" }).count()).toBe(0);
    await page.getByLabel("Month").fill("");
    await page.getByRole("button", { name: "Revenue CSV" }).click();
    await page.getByText("Choose a month as YYYY-MM").waitFor();
  }, 60_000);
});
