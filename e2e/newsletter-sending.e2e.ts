// The back office's newsletter panel (issue 32, ADR 070): an admin opens an account's figures,
// pauses its sending with a reason, sees the pause, resumes it. At 1280 and 390 px wide.
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { setRole } from "../src/app/cli/admin.ts";
import { user } from "../src/db/schema/index.ts";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("newsletter sending in the back office", () => {
  it("an admin pauses and resumes an account's sending, with a reason", async () => {
    const admin = await createAuthorAccount(e.server);
    await setRole(e.server.database.db, admin.email, "admin");
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, admin.email);
    await page.waitForURL((u) => u.pathname !== "/login");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/admin/users?q=${encodeURIComponent(author.email)}`);
      const row = page.getByRole("row").filter({ hasText: author.email });
      await row.getByRole("button", { name: "Newsletters" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Bounce rate").waitFor();
      await dialog.getByLabel(/Reason/).fill("Bounce rate too high");
      await shot(page, `newsletter-sending-${width}`, { viewport: true });
      await dialog.getByRole("button", { name: "Pause sending" }).click();
      await page.getByText(`${author.email}'s sending is paused`).waitFor();
      await row.getByRole("button", { name: "Newsletters" }).click();
      await dialog.getByText("Sending paused").waitFor();
      expect(await dialog.textContent()).toContain("Bounce rate too high");
      await shot(page, `newsletter-sending-paused-${width}`, { viewport: true });
      await dialog.getByLabel(/Reason/).fill("Cleaned their list");
      await dialog.getByRole("button", { name: "Resume sending" }).click();
      await page.getByText(`${author.email} can send again`).waitFor();
    }
  });

  it("the author's Newsletters screen says their sending is paused", async () => {
    const author = await createAuthorAccount(e.server);
    await e.server.database.db
      .update(user)
      .set({ newsletterSendingPausedAt: new Date(), newsletterSendingPausedReason: "review" })
      .where(eq(user.email, author.email));
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((u) => u.pathname !== "/login");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/dashboard/newsletters");
      await page.getByText("Sending is paused for your account.").waitFor();
      await shot(page, `newsletters-paused-author-${width}`, { viewport: true });
    }
  });
});
