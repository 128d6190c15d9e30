// The free book for new subscribers in the browser (ADR 068): the author uploads it under
// Settings → Newsletter (a PNG called .pdf is refused with a message), names the offer; a reader
// sees "Get … free" on the sign-up form, signs up, confirms through the mailed link and downloads
// the book from the confirmation page; the welcome mail's link opens its page; the author sees the
// download counted. Looked at on a 390 px phone and on a desktop.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { magnetToken } from "../src/server/modules/newsletter/magnet-link.ts";
import { apiClient, expectStatus } from "../src/testing/api-client.ts";
import { PDF, PNG } from "../src/testing/magnet.ts";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, firstLink, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();
const DAY = 24 * 60 * 60_000;

const noSideways = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

async function both(page: Page, name: string, ready: () => Promise<unknown>) {
  for (const [size, width] of [
    ["phone", 390],
    ["desktop", 1280],
  ] as const) {
    await page.setViewportSize({ width, height: 844 });
    await ready();
    await noSideways(page, width);
    await shot(page, `${name}-${size}`);
  }
}

browserDescribe("free book for new subscribers", () => {
  it("author uploads, reader signs up, confirms by mail and downloads", async () => {
    const author = await createAuthor(e.server, { name: "Ada Lighthouse" });
    await expectStatus(
      apiClient(e.server, author).site.settings.$patch({ json: { showWhenEmpty: ["newsletter"] } }),
      200,
    );

    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto("/dashboard/newsletter");
    const panel = page.getByRole("region", { name: "Free book for new subscribers" });
    await panel.getByText("No downloads yet.").waitFor();

    // A picture called .pdf: judged by its content, refused, nothing kept.
    await panel
      .getByLabel("EPUB or PDF file")
      .setInputFiles({ name: "cover.pdf", mimeType: "application/pdf", buffer: PNG });
    await panel.getByText("This file is not an EPUB or a PDF").waitFor();
    await panel
      .getByLabel("EPUB or PDF file")
      .setInputFiles({ name: "prequel.pdf", mimeType: "application/pdf", buffer: PDF });
    await panel.getByTestId("magnet-file").getByText("prequel.pdf").waitFor();
    await panel.getByLabel("Title in the offer").fill("The Lighthouse Prequel");
    await panel.getByRole("button", { name: "Save title" }).click();
    await page.getByText("Free book saved").first().waitFor();
    await both(page, "magnet-settings", () => panel.getByText("Downloads in the last 30 days: 0").waitFor());

    // The reader's side, on the author's site.
    const site = `http://${author.subdomain}.localhost:${e.server.port}`;
    const reader = await newPage(e);
    await reader.goto(`${site}/newsletter`);
    await both(reader, "magnet-signup", () => reader.getByText("Get The Lighthouse Prequel free").waitFor());
    await reader.getByLabel(/email/i).fill("reader@example.com");
    await reader.getByRole("button", { name: "Subscribe" }).click();
    await reader.getByText("One more step").waitFor();
    const confirm = firstLink((await e.server.smtp.waitFor("reader@example.com", "Please confirm")).text);
    await reader.goto(confirm);
    await reader.getByRole("button", { name: "Confirm subscription" }).click();
    const button = reader.getByRole("button", { name: /Download The Lighthouse Prequel/ });
    await both(reader, "magnet-confirmed", () => button.waitFor());
    const [file] = await Promise.all([reader.waitForEvent("download"), button.click()]);
    expect(file.suggestedFilename()).toBe("prequel.pdf");
    expect(readFileSync((await file.path()) ?? "").equals(PDF)).toBe(true);

    // The welcome mail's link opens the book's page on the site.
    const welcome = await e.server.smtp.waitFor("reader@example.com", "Your free book: The Lighthouse Prequel");
    const link = /http:\/\/\S+\/newsletter\/free-book\?token=\S+/.exec(welcome.text)?.[0] ?? "";
    await reader.goto(link);
    await reader.getByRole("heading", { name: "Your free book" }).waitFor();
    await both(reader, "magnet-link-page", () => reader.getByRole("button", { name: /Download/ }).waitFor());

    // A week later the link has expired: the page offers a new one, which comes by mail.
    const token = new URL(link).searchParams.get("token") ?? "";
    const old = magnetToken(
      e.server.unsubscribeKey,
      author.id,
      token.split(".")[0] ?? "",
      new Date(Date.now() - 8 * DAY),
    );
    await reader.goto(`${site}/newsletter/free-book?token=${old}`);
    const renew = reader.getByRole("button", { name: "Send me a new link" });
    await both(reader, "magnet-expired", () => renew.waitFor());
    await renew.click();
    await both(reader, "magnet-renewed", () => reader.getByRole("heading", { name: "Check your inbox" }).waitFor());
    await e.server.smtp.waitFor("reader@example.com", "A new link for your free book: The Lighthouse Prequel");

    // The author sees the download counted today.
    await page.reload();
    await both(page, "magnet-settings-counted", () => panel.getByText("Downloads in the last 30 days: 1").waitFor());

    // Removing it asks first; then the sign-up form offers no free book.
    await panel.getByRole("button", { name: "Remove the free book" }).click();
    const question = page.getByRole("dialog", { name: "Remove the free book?" });
    await both(page, "magnet-remove", () => question.waitFor());
    await question.getByRole("button", { name: "Remove" }).click();
    await page.getByText("Free book removed").first().waitFor();
    await question.waitFor({ state: "detached" });
    await panel.getByTestId("magnet-file").waitFor({ state: "detached" });
    await reader.goto(`${site}/newsletter`);
    expect(await reader.getByText("Get The Lighthouse Prequel free").count()).toBe(0);
    await page.context().close();
    await reader.context().close();
  });
});
