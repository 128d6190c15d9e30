// A newsletter that counts clicks, in the browser (ADR 069): the switch in the editor, figures that
// refresh by themselves while copies wait, clicks per link, and deleting it after a question; at
// 1280 and 390 px.
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { mailOutbox, newsletterLinks, newsletterSubscribers, newsletters } from "../src/db/schema/index.ts";
import { readMail } from "../src/testing/mail-message.ts";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();
const LINK = "https://example.com/chapter-three?from=letter#start";

browserDescribe("newsletter clicks and delete", () => {
  it("shows copies on their way, then the figures and clicks per link, and deletes it after a question", async () => {
    const db = e.server.database.db;
    const author = await createAuthor(e.server);
    const readers = ["one", "two"].map((w) => `${w}-${author.subdomain}@example.com`);
    const subs = await db
      .insert(newsletterSubscribers)
      .values(
        readers.map((email) => ({
          userId: author.id,
          email,
          status: "confirmed",
          confirmToken: randomBytes(18).toString("base64url"),
        })),
      )
      .returning({ id: newsletterSubscribers.id });
    // Gone out a moment ago; its copies wait a few seconds (as behind a slow mail server).
    const [n] = await db
      .insert(newsletters)
      .values({
        userId: author.id,
        subject: "The third chapter",
        content: `<p>It is written. <a href="${LINK}">Read the opening</a></p>`,
        status: "sending",
        countClicks: true,
        recipients: 2,
        scheduledAt: new Date(),
        startedAt: new Date(),
      })
      .returning({ id: newsletters.id });
    const id = n?.id as string;
    await db.insert(newsletterLinks).values({ newsletterId: id, url: LINK, position: 0 });
    await db.insert(mailOutbox).values(
      subs.map((sub, i) => ({
        to: readers[i] as string,
        subject: "The third chapter",
        text: "",
        status: "queued",
        newsletterId: id,
        subscriberId: sub.id,
        nextAttemptAt: sql`now() + interval '8 seconds'`,
      })),
    );

    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto("/dashboard/newsletters");
    await page.getByRole("button", { name: 'Open "The third chapter"' }).click();
    await expect.poll(() => page.getByRole("switch", { name: "Count clicks" }).isChecked()).toBe(true);
    expect(await page.getByRole("switch", { name: "Count clicks" }).isDisabled()).toBe(true);
    await page.getByText("2 copies are still on the way").waitFor();
    await shot(page, "newsletter-waiting-desktop");

    // No reload: the figures come by themselves once the copies went.
    const accepted = page.getByRole("list", { name: "How it went" }).or(page.getByLabel("How it went"));
    await page.getByText("2 copies are still on the way").waitFor({ state: "detached", timeout: 30_000 });
    await expect.poll(() => accepted.getByText("Accepted").locator("..").textContent()).toContain("2");

    // A reader follows the link in their copy.
    const raw = e.server.smtp.mails.findLast((m) => m.to.includes(readers[0] as string))?.raw ?? "";
    const go = /href="([^"]*\/go\/[^"]*)"/.exec(readMail(raw).part("text/html")?.body ?? "")?.[1] ?? "";
    const u = new URL(go.replace(/&amp;/g, "&"));
    const followed = await e.server.onHost(u.hostname, u.pathname, { "user-agent": "Mozilla/5.0 Firefox/140.0" });
    expect(followed.status).toBe(302);
    expect(followed.headers.location).toBe(LINK);

    // The job marks it sent (every 10 s); then it can be deleted.
    await expect
      .poll(async () => (await db.select().from(newsletters).where(eq(newsletters.id, id)))[0]?.status, {
        timeout: 25_000,
      })
      .toBe("sent");
    await page.reload();
    await page.getByRole("button", { name: 'Open "The third chapter"' }).click();
    const perLink = page.getByRole("list", { name: "Clicks per link" });
    await perLink.getByText(LINK).waitFor();
    expect(await perLink.textContent()).toContain("1 click · 1 reader");
    await shot(page, "newsletter-clicks-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await perLink.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "newsletter-clicks-phone", { viewport: true });

    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this newsletter?" });
    await dialog.getByText("Readers keep the copy they received").waitFor();
    await shot(page, "newsletter-delete-phone", { viewport: true });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Newsletter deleted").waitFor();
    await page.getByRole("heading", { name: "No newsletters yet" }).waitFor();
  });
});
