// The Subscribers screen in the browser: the author finds their readers under Settings, next to
// Newsletter, searches by address, filters by status, removes a reader after a confirm step, and
// imports another provider's CSV (refused until they confirm these readers asked for mail). Another author
// sees none of it. Looked at on a 390 px phone and on a desktop.
import { expect, it } from "vitest";
import { newsletterSubscribers } from "../src/db/schema/index.ts";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("author's subscribers", () => {
  it("searches, filters, removes and imports", async () => {
    const author = await createAuthor(e.server);
    const stranger = await createAuthor(e.server);
    const base = Date.parse("2026-10-01T09:00:00Z");
    await e.server.database.db.insert(newsletterSubscribers).values(
      Array.from({ length: 60 }, (_, i) => ({
        userId: author.id,
        email: `reader-${String(i).padStart(2, "0")}@example.com`,
        status: i === 7 ? "unsubscribed" : i % 5 === 0 ? "pending" : "confirmed",
        confirmToken: `e2e-token-${author.id}-${i}`,
        createdAt: new Date(base + i * 3_600_000),
        signupPage: i % 2 === 0 ? "/newsletter" : null,
      })),
    );

    const page = await newPage(e);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Newsletter" }).click();
    // The Newsletter settings count the list and lead to it.
    await page.getByTestId("subscriber-count").getByText("47 confirmed, 12 waiting to confirm").waitFor();
    await shot(page, "newsletter-settings-desktop");
    await page.getByRole("link", { name: "See and import subscribers" }).click();
    await page.getByRole("heading", { name: "Subscribers", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/subscribers");

    // Counts per status, 50 to a page, newest first.
    const chip = (name: RegExp) => page.getByTestId("status-filter").getByRole("button", { name });
    await chip(/^All\s*60$/).waitFor();
    await chip(/^Confirmed\s*47$/).waitFor();
    await chip(/^Waiting to confirm\s*12$/).waitFor();
    await chip(/^Unsubscribed\s*1$/).waitFor();
    const rows = page.getByTestId("subscriber-list").getByRole("listitem");
    await page.getByTestId("subscriber-range").getByText("1–50 of 60").waitFor();
    expect(await rows.count()).toBe(50);
    expect(await rows.first().textContent()).toContain("reader-59@example.com");
    expect(await page.getByTestId("subscriber-list").textContent()).toContain("on /newsletter");
    await shot(page, "subscribers-desktop", { viewport: true });
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByTestId("subscriber-range").getByText("51–60 of 60").waitFor();
    expect(await rows.count()).toBe(10);

    // Search by address (a moment after typing), then a status filter.
    await page.getByLabel("Search by address").fill("reader-0");
    await page.getByTestId("subscriber-range").getByText("1–10 of 10").waitFor();
    await chip(/^Unsubscribed/).click();
    await page.getByTestId("subscriber-range").getByText("1–1 of 1").waitFor();
    expect(await rows.first().textContent()).toContain("reader-07@example.com");
    await chip(/^All/).click();
    await page.getByTestId("subscriber-range").getByText("1–10 of 10").waitFor();

    // Remove: a confirm step first; Cancel keeps the reader.
    await page.getByLabel("Search by address").fill("reader-03@");
    await page.getByTestId("subscriber-range").getByText("1–1 of 1").waitFor();
    await page.getByRole("button", { name: "Remove reader-03@example.com" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove this subscriber?" });
    await dialog.getByText("reader-03@example.com").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Remove reader-03@example.com" }).click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await page.getByTestId("no-subscribers").getByText("No subscriber matches this search.").waitFor();
    await chip(/^All\s*59$/).waitFor();

    // Import: refused without the confirmation, then the result in one sentence.
    await page.getByLabel("Search by address").fill("");
    await page.getByRole("button", { name: "Import CSV" }).click();
    const form = page.getByRole("form", { name: "Import subscribers" });
    await form.getByLabel("CSV file").setInputFiles({
      name: "mailchimp.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        '\uFEFF"Email Address","First Name"\r\n"new-one@example.com","Ann"\r\n"reader-07@example.com","Left"\r\n"nope","X"\r\n"new-two@example.com","Bob"\r\n',
      ),
    });
    await form.getByRole("button", { name: "Import" }).click();
    await form
      .getByRole("alert")
      .getByText(/Please confirm that everyone on this list asked/)
      .waitFor();
    await form.getByLabel(/Everyone on this list asked to receive my newsletter/).check();
    await form.getByRole("button", { name: "Import" }).click();
    await page
      .getByTestId("import-result")
      .getByText("2 imported, 1 already on your list, 1 not valid: line 4 (nope).")
      .waitFor();
    await chip(/^All\s*61$/).waitFor();
    await shot(page, "subscribers-import-desktop", { viewport: true });
    await chip(/^Unsubscribed\s*1$/).waitFor(); // the reader who left stays unsubscribed
    await page.getByLabel("Search by address").fill("new-one");
    await page.getByTestId("subscriber-range").getByText("1–1 of 1").waitFor();
    expect(await rows.first().textContent()).toMatch(/Imported/);

    // On a phone: nothing wider than the screen.
    await page.getByLabel("Search by address").fill("");
    await page.getByTestId("subscriber-range").getByText("1–50 of 61").waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "subscribers-phone-import", { viewport: true });
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByTestId("subscriber-list").scrollIntoViewIfNeeded();
    await shot(page, "subscribers-phone", { viewport: true });
    await page.getByRole("navigation", { name: "Pages" }).scrollIntoViewIfNeeded();
    await shot(page, "subscribers-phone-pages", { viewport: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.goto("/dashboard/newsletter");
    await page.getByTestId("subscriber-count").getByText("48 confirmed, 12 waiting to confirm").waitFor();
    await shot(page, "newsletter-settings-phone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // An address past the last page shows the last page.
    await page.goto("/dashboard/subscribers?page=9");
    await page.getByTestId("subscriber-range").getByText("51–61 of 61").waitFor();

    // Another author: an empty list.
    const other = await e.browser.newContext({ baseURL: e.server.url });
    const theirs = await other.newPage();
    await signInThroughUi(theirs, stranger.email);
    await theirs.waitForURL((url) => url.pathname === "/dashboard");
    await theirs.goto("/dashboard/subscribers");
    await theirs
      .getByTestId("no-subscribers")
      .getByText(/No one has signed up yet/)
      .waitFor();
    await other.close();
  });
});
