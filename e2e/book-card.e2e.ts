// The editor's "Insert book" (ADR 071) in the browser: the author picks one of their books and a
// card naming it goes into the newsletter; and Settings → Newsletter's archive switch and postal
// address (a bad one refused with its message). Both at a
// laptop's width and a phone's (390 px, nothing running off the side).
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { newsletters, websiteCustomization } from "../src/db/schema/index.ts";
import { apiClient, expectStatus } from "../src/testing/api-client.ts";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("book cards and the newsletter archive setting", () => {
  it("inserts a book card into a newsletter, turns the archive on and gives a postal address", async () => {
    const author = await createAuthor(e.server);
    const { book } = await expectStatus(
      apiClient(e.server, author).books.$post({ json: { title: "The Lantern Road", author: "J" } }),
      201,
    );
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");

    await page.goto("/dashboard/newsletters");
    await page.getByRole("button", { name: "New Newsletter" }).click();
    await page.getByLabel("Subject").fill("A book for you");
    await page.getByRole("textbox", { name: "Message" }).click();
    await page.keyboard.type("My new book is out.");
    await page.getByRole("button", { name: "Insert book" }).click();
    await page.getByRole("combobox", { name: "Book" }).selectOption({ label: "The Lantern Road" });
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await page.getByText("Book card").waitFor();
    await shot(page, "book-card-editor-desktop");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Newsletter saved").waitFor();
    const [saved] = await e.server.database.db.select().from(newsletters).where(eq(newsletters.userId, author.id));
    expect(saved?.content).toContain(`<div data-book-card="${book.id}"></div>`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Insert book" }).scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "Insert book" }).click();
    await page.getByRole("combobox", { name: "Book" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "book-card-editor-phone", { viewport: true });

    await page.goto("/dashboard/newsletter");
    const archive = page.getByRole("switch", { name: /web archive/ });
    await archive.click();
    const address = page.getByRole("textbox", { name: "Postal address (optional)" });
    await address.fill("1\n2\n3\n4\n5\n6\n7");
    await page.getByRole("button", { name: "Save Archive and Address" }).click();
    await page.getByText("Postal address can have at most 6 lines").waitFor();
    await address.fill("Jane Author\nPO Box 12\nHarbour Town HT1 2AB");
    await page.getByRole("button", { name: "Save Archive and Address" }).click();
    await page.getByText("Newsletter settings saved successfully!").first().waitFor();
    const [row] = await e.server.database.db
      .select()
      .from(websiteCustomization)
      .where(eq(websiteCustomization.userId, author.id));
    expect(row?.newsletterArchiveEnabled).toBe(true);
    expect(row?.postalAddress).toBe("Jane Author\nPO Box 12\nHarbour Town HT1 2AB");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "newsletter-settings-phone", { viewport: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, "newsletter-settings-desktop");

    // Once sent, the newsletter is on the site's archive with its book card, in the site's theme.
    await e.server.database.db
      .update(newsletters)
      .set({ status: "sent", sentAt: new Date() })
      .where(eq(newsletters.userId, author.id));
    await expectStatus(
      apiClient(e.server, author).newsletter.settings.$put({ json: { archiveEnabled: true, postalAddress: null } }),
      200,
    );
    await page.goto(`http://${author.subdomain}.localhost:${e.server.port}/newsletter/archive/${saved?.id}`);
    await page.getByRole("heading", { name: "A book for you" }).waitFor();
    await page
      .getByRole("complementary", { name: "Book: The Lantern Road" })
      .getByRole("link", { name: /Buy the book/ })
      .waitFor();
    await shot(page, "archived-newsletter-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "archived-newsletter-phone", { viewport: true });
  });
});
