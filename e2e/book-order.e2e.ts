// Book order and a smaller plan in a real browser (ADR 054): books added one after another keep
// the order they were typed in; switching to a plan that shows fewer books asks which ones stay
// and hides exactly the others; the Books screen then shows the hidden ones and lets the author
// swap them, refusing a sixth with a clear message; the dashboard's usage never reads over 100%.
// Checked at 1280 and at 390 px wide.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import type { Json } from "../src/testing/api-client.ts";
import { createAuthor, type TestAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

async function apiCreate(author: TestAuthor, title: string) {
  const res = await e.server.api("/api/books", {
    method: "POST",
    cookie: author.cookie,
    json: { title, author: "Jane" },
  });
  expect(res.status).toBe(201);
  return (await res.json()).book as Json;
}

const cards = (page: Page) => page.getByTestId("book-card");
const card = (page: Page, title: string) =>
  cards(page).filter({ has: page.getByRole("heading", { name: title, exact: true }) });
const cardTitles = (page: Page) => cards(page).locator("h3").allTextContents();

async function noSideScroll(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
}

/** The titles a reader sees on the public Books page. */
async function publicTitles(author: TestAuthor): Promise<string[]> {
  const r = await e.server.onHost(`${author.subdomain}.localhost`, "/books");
  return [...r.body.matchAll(/<h2>(Book \d+)<\/h2>/g)].map((m) => m[1] as string);
}

browserDescribe("book order and a smaller plan", () => {
  it("keeps the typed order; a downgrade keeps the chosen books; the Books screen swaps them", async () => {
    const author = await createAuthor(e.server, { tier: "midi" });
    const titles = Array.from({ length: 7 }, (_, i) => `Book ${i + 1}`);
    for (const t of titles) await apiCreate(author, t);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL("**/dashboard");

    // Typed oldest first, listed oldest first.
    await page.goto("/dashboard/books");
    await expect.poll(() => cardTitles(page)).toEqual(titles);
    await page.getByTestId("books-shown").getByText("7 books, 7 shown on your site (Midi plan shows 10)").waitFor();

    // Mini shows 5: the plan screen asks which stay, the first five ticked.
    await page.goto("/dashboard/plan");
    await page.getByRole("article", { name: "Mini" }).getByRole("button", { name: "Switch to Mini" }).click();
    const dialog = page.getByRole("dialog", { name: "Switch to Mini?" });
    await dialog.getByText("2 of your books will no longer be shown on your site: the Mini plan shows 5.").waitFor();
    const box = (t: string) => dialog.getByRole("checkbox", { name: t, exact: true });
    await box("Book 5").waitFor();
    for (const t of titles) expect(await box(t).isChecked()).toBe(titles.indexOf(t) < 5);
    expect(await dialog.getByTestId("keep-count").textContent()).toBe("(5 of 5 chosen)");
    // Full: another cannot be ticked until one is unticked.
    expect(await box("Book 7").isDisabled()).toBe(true);
    await box("Book 3").uncheck();
    await box("Book 7").check();
    await box("Book 4").uncheck();
    await box("Book 6").check();
    expect(await dialog.getByTestId("keep-count").textContent()).toBe("(5 of 5 chosen)");
    await shot(page, "downgrade-choose-books", { viewport: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await noSideScroll(page);
    const inside = await dialog.boundingBox();
    expect(
      inside && inside.x >= 0 && inside.y >= 0 && inside.x + inside.width <= 390 && inside.y + inside.height <= 844,
    ).toBe(true);
    await shot(page, "downgrade-choose-books-phone", { viewport: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole("button", { name: "Switch to Mini" }).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    await page.getByText("Your plan is now Mini.").waitFor();

    const kept = ["Book 1", "Book 2", "Book 5", "Book 6", "Book 7"];
    expect(await publicTitles(author)).toEqual(kept);
    // Usage says how many are shown, never a percentage over 100.
    const usage = page.getByTestId("books-used");
    await usage.getByText("7 books, 5 shown on your site (Mini plan allows 5)").waitFor();
    expect(await usage.textContent()).not.toMatch(/%/);
    await page.getByText("2 of your books are not shown on your site because the Mini plan covers 5.").waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await noSideScroll(page);
    await usage.scrollIntoViewIfNeeded();
    await shot(page, "dashboard-usage-phone", { viewport: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The Books screen lists the hidden ones up front, marked as hidden by the plan.
    await page.getByRole("link", { name: "Choose which books are shown" }).click();
    await page.waitForURL("**/dashboard/books");
    await expect.poll(() => cardTitles(page)).toEqual(titles);
    await page
      .getByTestId("plan-hidden-note")
      .getByText(/2 books are not on your site because your Mini plan shows 5/)
      .waitFor();
    for (const t of ["Book 3", "Book 4"]) await card(page, t).getByText("Hidden by plan", { exact: true }).waitFor();
    expect(await card(page, "Book 5").getByText("Hidden by plan").count()).toBe(0);
    await shot(page, "books-hidden-by-plan", { viewport: true });

    // A sixth is refused with what to do instead, and nothing changes.
    await card(page, "Book 3").getByRole("button", { name: 'Show "Book 3" on your site' }).click();
    await page
      .getByText("Your Mini plan shows 5 books on your site. Hide one of them first, or upgrade to show more.")
      .waitFor();
    await card(page, "Book 3").getByText("Hidden by plan", { exact: true }).waitFor();
    expect(await publicTitles(author)).toEqual(kept);

    // Swap: hide one that is shown, then show the one wanted.
    await card(page, "Book 7").getByRole("button", { name: 'Hide "Book 7" from your site' }).click();
    await page.getByText("Book hidden from public").waitFor();
    await card(page, "Book 3").getByRole("button", { name: 'Show "Book 3" on your site' }).click();
    await page.getByText("Book now visible to public").waitFor();
    await expect.poll(() => publicTitles(author)).toEqual(["Book 1", "Book 2", "Book 3", "Book 5", "Book 6"]);
    await card(page, "Book 3").getByRole("button", { name: 'Hide "Book 3" from your site' }).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => cardTitles(page)).toEqual(titles);
    await noSideScroll(page);
    await shot(page, "books-hidden-by-plan-phone", { viewport: true });
  });
});
