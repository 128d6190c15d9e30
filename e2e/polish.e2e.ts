// Issue 30's small fixes, looked at in the browser on a phone (390 px): a signed-in author's
// pricing page, toasts clear of the header's Sign out, the floating Edit Book clear of the footer,
// "Show Less" under the opened post, and a dark custom header with a light site name.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { contrast } from "../src/shared/colour-contrast.ts";
import { apiClient, expectStatus } from "../src/testing/api-client.ts";
import { createAuthor, type TestAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();
const PHONE = { width: 390, height: 844 };

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function pageWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

async function signedInPage(author: TestAuthor) {
  const page = await newPage(e);
  await signInThroughUi(page, author.email);
  await page.waitForURL((url) => url.pathname === "/dashboard");
  return page;
}

browserDescribe("issue 30's small fixes on a phone", () => {
  it("shows a signed-in author on /pricing the way to their plan, with no free trial offered", async () => {
    const author = await createAuthor(e.server);
    const page = await signedInPage(author);
    await page.setViewportSize(PHONE);
    await page.goto("/pricing");
    const main = page.locator("main");
    await main.getByRole("link", { name: "Go to your dashboard" }).first().waitFor();
    expect(await main.getByText(/free trial/i).count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: "/tmp/polish-pricing-signed-in-390.png" });
    await shot(page, "pricing-signed-in");
    await page.getByRole("link", { name: "Choose Midi in your dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/plan");
  });

  it("keeps a toast off the header's Sign out, on a phone and a wide screen", async () => {
    const author = await createAuthor(e.server);
    const page = await signedInPage(author);
    for (const size of [PHONE, { width: 1280, height: 900 }]) {
      await page.setViewportSize(size);
      await page.goto("/dashboard/bio");
      await page.getByRole("button", { name: "Save Bio" }).click();
      const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Bio updated successfully!" });
      await toast.waitFor();
      // Wait for the toast to settle where it stays (it slides in).
      await page.waitForTimeout(600);
      const [t, signOut] = await Promise.all([
        toast.boundingBox(),
        page.getByRole("button", { name: "Sign out" }).boundingBox(),
      ]);
      expect(t && signOut && !overlaps(t, signOut), `${size.width} px`).toBe(true);
      if (size.width === PHONE.width) await page.screenshot({ path: "/tmp/polish-toast-390.png" });
      await toast.getByRole("button", { name: /close/i }).click();
    }
  });

  it("lets the footer and the page's text show clear of the floating Edit Book", async () => {
    const author = await createAuthor(e.server);
    const { book } = await expectStatus(
      apiClient(e.server, author).books.$post({
        json: {
          title: "The Lighthouse Keeper",
          author: author.name,
        },
      }),
      201,
    );
    const page = await signedInPage(author);
    await page.setViewportSize(PHONE);
    await page.goto(`/author/${author.subdomain}/book/${book.id}`);
    await page.getByRole("heading", { level: 1, name: "The Lighthouse Keeper" }).waitFor();
    // The reader's cookie choice made, the banner is gone; then to the very bottom.
    await page.getByRole("form", { name: "Cookie consent" }).getByRole("button", { name: "Accept" }).click();
    await page.getByRole("heading", { level: 1, name: "The Lighthouse Keeper" }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(200);
    const fab = await page.getByRole("link", { name: "Edit Book" }).boundingBox();
    expect(fab).not.toBeNull();
    const covered = await page.evaluate((f) => {
      const hits: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>("footer.site *, main *")) {
        if (el.closest(".fab") || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim())) continue;
        const r = el.getBoundingClientRect();
        if (r.width && r.x < f.x + f.width && f.x < r.right && r.y < f.y + f.height && f.y < r.bottom) {
          hits.push(`${el.tagName} "${el.textContent?.trim().slice(0, 30)}"`);
        }
      }
      return hits;
    }, fab as Box);
    expect(covered).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: "/tmp/polish-fab-390.png" });
  });

  it("puts 'Show Less' under the opened post, and a dark header's site name in light text", async () => {
    const author = await createAuthor(e.server);
    const long = `<p>${"The harbour was quiet that morning, and the gulls were loud. ".repeat(4)}</p><p>The last line of the post.</p>`;
    await expectStatus(
      apiClient(e.server, author).posts.$post({
        json: { title: "A morning at the harbour", content: long, category: "news" },
      }),
      201,
    );
    const navy = "#1e3a8a";
    await expectStatus(
      apiClient(e.server, author).site.settings.$patch({ json: { headerBackgroundColor: navy } }),
      200,
    );
    const page = await newPage(e);
    await page.setViewportSize(PHONE);
    await page.goto(`http://${author.subdomain}.localhost:${e.server.port}/blog`);
    const post = page.locator("article.post").filter({ hasText: "A morning at the harbour" });
    await post.getByText("Read More...").click();
    await post.getByText("The last line of the post.").waitFor();
    const [less, last] = await Promise.all([
      post.getByText("Show Less").boundingBox(),
      post.getByText("The last line of the post.").boundingBox(),
    ]);
    expect(less && last && less.y >= last.y + last.height).toBe(true);

    const name = page.locator("header.site").getByText(`${author.name}'s Books`).first();
    const colour = await name.evaluate((el) => {
      const [r, g, b] = (getComputedStyle(el).color.match(/\d+/g) ?? []).map(Number);
      return `#${[r, g, b].map((v) => (v ?? 0).toString(16).padStart(2, "0")).join("")}`;
    });
    expect(contrast(colour, navy)).toBeGreaterThanOrEqual(7);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: "/tmp/polish-blog-navy-390.png", fullPage: true });
  });

  it("shows a British author dates as dd/mm/yyyy and saves what they type as the date they meant", async () => {
    const author = await createAuthor(e.server);
    const { book } = await expectStatus(
      apiClient(e.server, author).books.$post({
        json: {
          title: "Dated",
          author: author.name,
          releaseDate: "2024-11-03",
          reviews: [{ reviewText: "Lovely", reviewDate: "2023-01-02" }],
        },
      }),
      201,
    );
    const context = await e.browser.newContext({ baseURL: e.server.url, viewport: PHONE, locale: "en-GB" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto(`/edit-book/${book.id}`);
    const release = page.getByLabel("Release date");
    await expect.poll(() => release.inputValue()).toBe("03/11/2024");
    expect(await release.getAttribute("placeholder")).toBe("dd/mm/yyyy");
    const review = page.getByLabel("Review date");
    expect(await review.inputValue()).toBe("02/01/2023");
    await release.fill("31/02/2025");
    await page.getByRole("button", { name: "Update Book" }).click();
    await page.getByText("Please enter the date as dd/mm/yyyy").first().waitFor();
    await release.fill("4/12/2025");
    await release.scrollIntoViewIfNeeded();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: "/tmp/polish-date-390.png" });
    await page.getByRole("button", { name: "Update Book" }).click();
    await page.getByText("Book updated successfully!").waitFor();
    const saved = (await (await e.server.api(`/api/books/${book.id}`, { cookie: author.cookie })).json()) as {
      book: { releaseDate: string; reviews: { reviewDate: string }[] };
    };
    expect(saved.book.releaseDate).toBe("2025-12-04");
    expect(saved.book.reviews[0]?.reviewDate).toBe("2023-01-02");
    await context.close();
  });

  it("lists a book's reviews in the editor as the public page does, newest dated first, and edits and removes the right one", async () => {
    const author = await createAuthor(e.server);
    const { book } = await expectStatus(
      apiClient(e.server, author).books.$post({
        json: {
          title: "Reviewed",
          author: author.name,
          reviews: [
            { reviewText: "An undated one", reviewDate: null },
            { reviewText: "From 2021", reviewDate: "2021-06-01" },
            { reviewText: "From 2025", reviewDate: "2025-01-09" },
          ],
        },
      }),
      201,
    );
    const page = await signedInPage(author);
    await page.setViewportSize(PHONE);
    await page.goto(`/edit-book/${book.id}`);
    const reviews = page.getByTestId("review");
    const texts = () =>
      reviews.getByLabel("Review text").evaluateAll((els) => els.map((el) => (el as HTMLTextAreaElement).value));
    await expect.poll(texts).toEqual(["From 2025", "From 2021", "An undated one"]);
    await reviews.nth(1).scrollIntoViewIfNeeded();
    await shot(page, "polish-reviews-390", { viewport: true });
    await reviews.nth(1).getByLabel("Review text").fill("From 2021, edited");
    await reviews.nth(2).getByRole("button", { name: "Remove review 3" }).click();
    await expect.poll(texts).toEqual(["From 2025", "From 2021, edited"]);
    await page.getByRole("button", { name: "Update Book" }).click();
    await page.getByText("Book updated successfully!").waitFor();
    const saved = (await (await e.server.api(`/api/books/${book.id}`, { cookie: author.cookie })).json()) as {
      book: { reviews: { reviewText: string; reviewDate: string | null }[] };
    };
    expect(saved.book.reviews.map((r) => [r.reviewText, r.reviewDate])).toEqual([
      ["From 2025", "2025-01-09"],
      ["From 2021, edited", "2021-06-01"],
    ]);
    await page.context().close();
  });

  it("fits the dashboard's menu in one scrolling row on a phone, every item reachable by keyboard, the current one marked", async () => {
    const author = await createAuthor(e.server);
    const page = await signedInPage(author);
    await page.setViewportSize(PHONE);
    await page.goto("/dashboard/home");
    const nav = page.getByRole("navigation", { name: "Main" });
    const links = nav.getByRole("link");
    await expect.poll(() => links.count()).toBe(9);
    // One row: every item at the same height, the whole menu one touch-sized row high.
    const boxes = await links.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
    expect(new Set(boxes.map(Math.round)).size).toBe(1);
    expect((await nav.boundingBox())?.height).toBeLessThanOrEqual(48);
    // Settings is current on its Home Page tab, and brought into view at the row's end.
    const current = nav.locator('[aria-current="page"]');
    expect((await current.allTextContents()).map((t) => t.trim())).toEqual(["Settings"]);
    const settings = await current.boundingBox();
    expect(settings && settings.x >= 0 && settings.x + settings.width <= PHONE.width).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "polish-menu-settings-390", { viewport: true });
    // On a wide screen the menu sits beside the logo, in one row too.
    await page.setViewportSize({ width: 1280, height: 800 });
    const wide = await links.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
    expect(new Set(wide.map(Math.round)).size).toBe(1);
    expect((await nav.boundingBox())?.height).toBeLessThanOrEqual(48);
    await shot(page, "polish-menu-settings-1280", { viewport: true });
    await page.setViewportSize(PHONE);

    // Tab through the menu from the logo: each item in turn gets focus and is scrolled into the window.
    await page.goto("/dashboard");
    await nav.locator('[aria-current="page"]').waitFor();
    expect((await nav.locator('[aria-current="page"]').allTextContents()).map((t) => t.trim())).toEqual(["Dashboard"]);
    await page.getByRole("link", { name: "Bookplate" }).first().focus();
    const seen: string[] = [];
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press("Tab");
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const r = el.getBoundingClientRect();
          return { text: el.textContent?.trim() ?? "", inView: r.left >= 0 && r.right <= window.innerWidth };
        });
      const now = await focused();
      await expect.poll(focused).toEqual({ text: now.text, inView: true });
      seen.push(now.text);
    }
    expect(seen).toEqual(["Dashboard", "Books", "Bio", "Blog", "Newsletters", "Stats", "Settings", "Account", "Help"]);
    await shot(page, "polish-menu-help-focused-390", { viewport: true });
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/dashboard/help");
    await expect
      .poll(async () => (await nav.locator('[aria-current="page"]').allTextContents()).map((t) => t.trim()))
      .toEqual(["Help"]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });
});
