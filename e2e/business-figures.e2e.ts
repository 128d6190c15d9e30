// The back office's money figures in the browser on an install with the demo author: £0.00 and
// no subscriptions until a customer pays, the demo labelled in Users, then a sandbox customer's
// first payment on the Overview and Financial tabs; both tabs at 1280 and 390 px wide (ADR 045).
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { setRole } from "../src/app/cli/admin.ts";
import { runSubscriptionExpiry } from "../src/server/jobs/subscription-expiry.job.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, MONTHLY_PRICE_MINOR } from "../src/shared/plans.ts";
import { completeSandboxCheckout, createSignedInUser } from "../src/testing/users.ts";
import { browserDescribe, createVerifiedUser, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E(() => ({ SEED_DEMO: "true" }));

/** The figure a stat card shows under its label. */
async function figure(page: Page, label: string): Promise<string> {
  const card = page.locator("p", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::p[1]");
  await card.first().waitFor();
  return ((await card.first().textContent()) ?? "").trim();
}

async function noSidewaysScroll(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
}

browserDescribe("business figures", () => {
  it("read £0.00 on a fresh install with the demo, then a sandbox customer's payment", async () => {
    const staff = await createVerifiedUser(e.server);
    await setRole(e.server.database.db, staff.email, "super_admin");
    const page = await newPage(e);
    await signInThroughUi(page, staff.email);
    await page.waitForURL((u) => u.pathname !== "/login");

    await page.goto("/admin/overview");
    expect(await figure(page, "Revenue this month")).toBe("£0.00");
    expect(await figure(page, "Accounts")).toBe("1");
    await shot(page, "figures-overview-empty");
    await page.goto("/admin/financial");
    expect(await figure(page, "Monthly Revenue")).toBe("£0.00");
    expect(await figure(page, "Estimated MRR")).toBe("£0.00");
    expect(await figure(page, "Active Subscriptions")).toBe("0");
    await page.getByText("No payments yet.").waitFor();
    await shot(page, "figures-financial-empty");

    // Staff still find the demo, labelled.
    await page.goto("/admin/users?q=demo%40bookplate.invalid");
    const row = page.getByRole("table", { name: "Accounts" }).getByRole("row").filter({ hasText: "Eleanor Penrose" });
    await row.getByText("Demo", { exact: true }).waitFor();
    await shot(page, "figures-users-demo");

    // A customer on Midi in USD with a custom domain, whose trial ends: the sandbox charges the card.
    const u = await createSignedInUser(e.server, { prefix: "figures-e2e" });
    const stamp = Date.now() % 1_000_000;
    const done = await e.server.api("/api/onboarding/complete", {
      method: "POST",
      cookie: u.cookie,
      json: {
        name: u.name,
        email: u.email,
        websiteName: "Books",
        subdomain: `fige2e${stamp}`,
        domainOption: "custom",
        ownDomain: `fige2e${stamp}-books.com`,
        tier: "midi",
        currency: "GBP",
      },
    });
    expect(done.status).toBe(201);
    await completeSandboxCheckout(e.server, u.cookie, (await done.json()).checkoutUrl);
    await runSubscriptionExpiry(e.server.database.db, new Date(Date.now() + 15 * 864e5));
    const paid = formatMoney(MONTHLY_PRICE_MINOR.midi.GBP + CUSTOM_DOMAIN_ADDON_MINOR.GBP, "GBP");

    await page.goto("/admin/financial");
    await page.getByText(paid).first().waitFor();
    expect(await figure(page, "Monthly Revenue")).toBe(paid);
    expect(await figure(page, "Estimated MRR")).toBe(paid);
    expect(await figure(page, "Active Subscriptions")).toBe("1");
    await shot(page, "figures-financial");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "figures-financial-phone", { viewport: true });
    await noSidewaysScroll(page);

    await page.goto("/admin/overview");
    expect(await figure(page, "Revenue this month")).toBe(paid);
    await noSidewaysScroll(page);
    await shot(page, "figures-overview-phone", { viewport: true });
  });
});
