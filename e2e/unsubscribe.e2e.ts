// A reader's release mail in the browser, as a webmail shows it (at 390 px and on a desktop), and
// its unsubscribe link: the page behind it shows one button, which unsubscribes at once.
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { releaseAlerts } from "../src/db/schema/index.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { sendLaunchDayMails } from "../src/server/modules/books/launches.service.ts";
import { firstLink } from "../src/testing/smtp-catcher.ts";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("unsubscribe", () => {
  it("shows the release mail on a phone and a desktop, and its link unsubscribes with one button", async () => {
    const author = await createAuthor(e.server, { tier: "midi", name: "Jane Quill" });
    const res = await e.server.api("/api/books", {
      method: "POST",
      cookie: author.cookie,
      json: { title: "The Comet Year", author: "Jane Quill", releaseDate: "2031-03-14" },
    });
    expect(res.status).toBe(201);
    const host = `${author.subdomain}.localhost:${e.server.port}`;
    const asked = await e.server.postOnHost(`${author.subdomain}.localhost`, "/book/the-comet-year/alert", {
      email: "reader@example.com",
    });
    expect(asked.body).toContain("Check your inbox");
    const confirm = new URL(firstLink((await e.server.smtp.waitFor("reader@example.com", "Please confirm")).text));
    const token = confirm.searchParams.get("token") ?? "";
    expect((await e.server.postOnHost(`${author.subdomain}.localhost`, "/alerts/confirm", { token })).status).toBe(200);
    const sent = await sendLaunchDayMails(
      {
        db: e.server.database.db,
        mailer: e.server.mailer,
        logger: createLogger("silent"),
      },
      new Date("2031-03-14T00:10:00Z"),
    );
    expect(sent).toBe(1);
    const mail = await e.server.smtp.waitFor("reader@example.com", "The Comet Year is out now");
    expect(mail.html).toBeTruthy();

    const page = await newPage(e);
    for (const [name, width] of [
      ["phone", 390],
      ["desktop", 1280],
    ] as const) {
      await page.setViewportSize({ width, height: 844 });
      await page.setContent(mail.html ?? "");
      await page.getByRole("link", { name: "See the book" }).waitFor();
      // One column that fits: nothing wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `release-mail-${name}`);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    const link = await page.getByRole("link", { name: "Unsubscribe from release alerts" }).getAttribute("href");
    expect(link).toContain(`http://${host}/unsubscribe?token=a.`);
    await page.goto(link ?? "");
    await page.getByRole("heading", { name: "Unsubscribe" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "unsubscribe-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, "unsubscribe-desktop");
    // Opening the link changed nothing.
    const status = async () =>
      (await e.server.database.db.select().from(releaseAlerts).where(eq(releaseAlerts.email, "reader@example.com")))[0]
        ?.status;
    expect(await status()).toBe("confirmed");

    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByRole("heading", { name: "You're unsubscribed" }).waitFor();
    await shot(page, "unsubscribed-desktop");
    expect(await status()).toBe("unsubscribed");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "unsubscribed-phone");
    await page.context().close();
  });
});
