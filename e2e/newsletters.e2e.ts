// The Newsletters screen in the browser (issue 32): a blank newsletter is refused with the
// product's message, the author writes one in the post editor, previews it at phone width, sends
// themselves a test, then sends it to their confirmed readers — who each get one copy.
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { newsletterSubscribers } from "../src/db/schema/index.ts";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("author newsletters", () => {
  it("writes, previews, tests and sends a newsletter; the screen fits a phone", async () => {
    const author = await createAuthor(e.server);
    const readers = ["first", "second"].map((w) => `${w}-${author.subdomain}@example.com`);
    await e.server.database.db.insert(newsletterSubscribers).values(
      readers.map((email) => ({
        userId: author.id,
        email,
        status: "confirmed",
        confirmToken: randomBytes(18).toString("base64url"),
      })),
    );
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Newsletters" }).click();
    await page.getByRole("heading", { name: "Newsletters", exact: true }).waitFor();
    await page.getByRole("heading", { name: "No newsletters yet" }).waitFor();

    await page.getByRole("button", { name: "New Newsletter" }).click();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Please fill in all fields").first().waitFor();
    expect((await e.server.database.db.select().from(newsletterSubscribers)).length).toBeGreaterThan(0);

    await page.getByLabel("Subject").fill("Chapter three is done");
    await page.getByRole("textbox", { name: "Message" }).click();
    await page.keyboard.type("Dear readers, the third chapter is written.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Newsletter saved").waitFor();
    await page.getByRole("heading", { name: "Edit Newsletter" }).waitFor();

    const preview = page.frameLocator('iframe[title="Newsletter preview"]');
    await preview.getByText("the third chapter is written").waitFor();
    // It is the mail readers get, made by the server: the footer says why they get it.
    await preview.getByText("You receive this because you subscribed", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Phone" }).click();
    expect(await page.locator('iframe[title="Newsletter preview"]').evaluate((f) => f.clientWidth)).toBeLessThanOrEqual(
      360,
    );
    await shot(page, "newsletter-editor-desktop");

    await page.getByRole("button", { name: "Send me a test" }).click();
    await page.getByText(`Test sent to ${author.email}`).waitFor();
    await e.server.smtp.waitFor(author.email, "[Test] Chapter three is done");

    // At a phone's width nothing runs off the side.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Send now" }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "newsletter-editor-phone", { viewport: true });

    await page.getByRole("button", { name: "Send now" }).click();
    await page.getByText("Sending to your readers").waitFor();
    for (const r of readers) await e.server.smtp.waitFor(r, "Chapter three is done");
    await e.server.mailer.idle();
    for (const r of readers) {
      expect(e.server.smtp.mails.filter((m) => m.to.includes(r) && m.subject === "Chapter three is done")).toHaveLength(
        1,
      );
    }
    await page.getByRole("button", { name: "Back to newsletters" }).click();
    const item = page
      .getByRole("list", { name: "Newsletters" })
      .getByRole("listitem")
      .filter({ hasText: "Chapter three is done" });
    await item
      .getByText(/Sending|Sent/)
      .first()
      .waitFor();
    await shot(page, "newsletters-list-phone", { viewport: true });
  });
});
