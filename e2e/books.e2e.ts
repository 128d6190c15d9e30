// The books screens in a real browser: add a book with everything hanging off it (cover,
// retailer links, genres, a review), see it on the dashboard and the public site, edit it;
// reorder by buttons, 'Go to' and dragging; hide and show; delete; and the plan limit.
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { expect, it } from "vitest";
import type { Json } from "../src/testing/api-client.ts";
import { createAuthor, type TestAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

async function signedIn(author: TestAuthor): Promise<Page> {
  const page = await newPage(e);
  await signInThroughUi(page, author.email);
  await page.waitForURL("**/dashboard");
  return page;
}

async function apiCreate(author: TestAuthor, book: Json) {
  const res = await e.server.api("/api/books", { method: "POST", cookie: author.cookie, json: book });
  expect(res.status).toBe(201);
  return (await res.json()).book as Json;
}

/** The signed-in page's own view of the API. */
const pageApi = (page: Page, path: string) =>
  page.evaluate(async (p) => (await fetch(p, { credentials: "same-origin" })).json(), path) as Promise<Json>;

const cards = (page: Page) => page.getByTestId("book-card");
const card = (page: Page, title: string) =>
  cards(page).filter({ has: page.getByRole("heading", { name: title, exact: true }) });
const cardTitles = (page: Page) => cards(page).locator("h3").allTextContents();

async function coverPng(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 600, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="400" height="600"><rect x="40" y="60" width="320" height="120" fill="#f5d76e"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
}

/** Drags with small pointer steps: dnd-kit starts a drag only after the pointer has moved. */
async function drag(page: Page, handle: Locator, onto: Locator) {
  const from = await handle.boundingBox();
  const fromCard = await handle.locator("xpath=ancestor::li[1]").boundingBox();
  const to = await onto.boundingBox();
  if (!from || !to || !fromCard) throw new Error("nothing to drag");
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  const targetY = y + (to.y + to.height / 2 - (fromCard.y + fromCard.height / 2));
  for (let i = 1; i <= 20; i++) {
    await page.mouse.move(x, y + ((targetY - y) * i) / 20);
    await page.waitForTimeout(15);
  }
  await page.mouse.up();
}

browserDescribe("books", () => {
  it("adds a book with cover, retailer links, genres and a review; edits it; shows it publicly", async () => {
    const author = await createAuthor(e.server);
    const page = await signedIn(author);

    // The dashboard's navigation leads to the books.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Books" }).click();
    await page.waitForURL("**/dashboard/books");
    await page.getByRole("heading", { name: "No books added yet" }).waitFor();
    await page.getByRole("link", { name: "Add Your First Book" }).click();
    await page.waitForURL("**/add-book");

    const submit = page.getByRole("button", { name: "Add Book", exact: true });
    await page.getByText("Please fill in the required fields: Title and Author").waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, "add-book-empty", { viewport: true });

    await page.getByLabel("Title", { exact: true }).fill("The Lighthouse Keeper");
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel("Author", { exact: true }).fill("Jane Writer");
    expect(await submit.isDisabled()).toBe(false);
    await page.getByLabel("Subtitle", { exact: true }).fill("A Cornish Mystery");
    // The ISBN's checksum is checked as soon as the field is left.
    const isbn = page.getByLabel("ISBN", { exact: true });
    await isbn.fill("978-0-306-40615-8");
    await isbn.blur();
    await page.getByText("Please enter a valid ISBN-10 or ISBN-13").waitFor();
    await isbn.fill("978-0-306-40615-7");
    await page.getByText("Please enter a valid ISBN-10 or ISBN-13").waitFor({ state: "detached" });
    await page.getByRole("textbox", { name: "Blurb" }).click();
    await page.keyboard.type("A keeper, a storm, and a secret.");
    await page.getByLabel("Series name", { exact: true }).fill("Tides");
    await page.getByLabel("Number in series", { exact: true }).fill("2");

    const genres = page.getByRole("textbox", { name: "Genres", exact: true });
    for (const g of ["Mystery", "Coastal", "Thriller"]) {
      await genres.fill(g);
      await genres.press("Enter");
    }
    await page.getByRole("list", { name: "Genres" }).getByText("Thriller").waitFor();

    // Only a picture may be chosen as the cover.
    const coverInput = page.getByLabel("Cover image", { exact: true });
    await coverInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
    await page.getByText("Please select an image file").waitFor();
    await coverInput.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(11 * 1024 * 1024) });
    await page.getByText("Cover image must be 10 MB or smaller").waitFor();
    await coverInput.setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await coverPng() });
    await page.getByTestId("cover-preview").waitFor();
    expect(await page.getByText(/Please select an image file|must be 10 MB or smaller/).count()).toBe(0);

    // Typing a price lets only digits and one decimal point in; it is saved to 2 decimals.
    const price = page.getByLabel("Price", { exact: true });
    await price.pressSequentially("12a.3.45");
    expect(await price.inputValue()).toBe("12.345");
    await page.getByLabel("Currency", { exact: true }).selectOption("USD");

    // Retailer links: both needed, http(s) only.
    const linkName = page.getByLabel("Retailer name", { exact: true });
    const linkUrl = page.getByLabel("Retailer URL", { exact: true });
    const addLink = page.getByRole("button", { name: "Add Link" });
    await linkName.fill("Bookshop");
    await addLink.click();
    await page.getByText("Please enter both the retailer name and URL").waitFor();
    await linkUrl.fill("ftp://bookshop.org/x");
    await addLink.click();
    await page.getByText("Retailer URL must start with http:// or https://").waitFor();
    await linkUrl.fill("https://bookshop.org/a/lighthouse");
    await addLink.click();
    await linkName.fill("Waterstones");
    await linkUrl.fill("https://www.waterstones.com/book/lighthouse");
    await addLink.click();
    await expect.poll(() => page.getByTestId("retailer-link").count()).toBe(2);

    // A review just added is not scolded before it is written; an empty one is, once left.
    await page.getByRole("button", { name: "Add Review" }).click();
    const review = page.getByTestId("review").first();
    await review.getByLabel("Reviewer").fill("A. Reader");
    await review.getByLabel("Rating (0–5)").fill("4.5");
    expect(await page.getByText("Review text is required").count()).toBe(0);
    await review.getByLabel("Review text").focus();
    await review.getByLabel("Reviewer").focus();
    await review.getByText("Review text is required").waitFor();
    await review.getByLabel("Review text").fill("Could not put it down.");
    await review.getByText("Review text is required").waitFor({ state: "detached" });
    await review.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await shot(page, "add-book-filled", { viewport: true });

    await submit.click();
    await page.getByText('"The Lighthouse Keeper" has been added to your collection!').waitFor();
    await page.waitForURL("**/dashboard/books");

    const added = card(page, "The Lighthouse Keeper");
    await added.waitFor();
    for (const text of ["A Cornish Mystery", "by Jane Writer", "Tides #2", "$12.35"]) {
      await added.getByText(text, { exact: true }).waitFor();
    }
    const cover = added.getByRole("img", { name: "Cover of The Lighthouse Keeper" });
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);
    expect(await cover.getAttribute("src")).toMatch(/^\/uploads\/covers\/.+\.webp$/);
    await shot(page, "dashboard-books", { viewport: true });

    const [stored] = (await pageApi(page, "/api/books")).books as Json[];
    const detail = (await pageApi(page, `/api/books/${stored?.id}`)).book as Json;
    // Its address on the site comes from its title (ADR 051).
    expect(detail.slug).toBe("the-lighthouse-keeper");
    expect(detail).toMatchObject({
      title: "The Lighthouse Keeper",
      isbn: "978-0-306-40615-7",
      primaryPriceMinor: 1235,
      primaryCurrency: "USD",
      orderInSeries: 2,
      shortBlurb: "<p>A keeper, a storm, and a secret.</p>",
      genres: ["Mystery", "Coastal", "Thriller"],
    });
    expect(detail.retailerLinks.map((l: Json) => l.retailerName)).toEqual(["Bookshop", "Waterstones"]);
    expect(detail.reviews).toEqual([expect.objectContaining({ reviewerName: "A. Reader", rating: 4.5 })]);

    // Edit: fields come back filled; change the title, a link, the genres and the review.
    await added.getByRole("link", { name: 'Edit "The Lighthouse Keeper"' }).click();
    await page.waitForURL(`**/edit-book/${detail.id}`);
    const title = page.getByLabel("Title", { exact: true });
    await expect.poll(() => title.inputValue()).toBe("The Lighthouse Keeper");
    expect(await page.getByLabel("Price", { exact: true }).inputValue()).toBe("12.35");
    await page.getByTestId("cover-preview").waitFor();
    await shot(page, "edit-book", { viewport: true });
    await title.fill("The Lighthouse Keeper's Daughter");
    await page.getByLabel("Retailer 2 name").fill("Waterstones UK");
    await page.getByRole("button", { name: "Move retailer 2 up" }).click();
    await page.getByRole("button", { name: "Remove genre Coastal" }).click();
    await page.getByTestId("review").first().getByLabel("Review text").fill("Even better the second time.");
    await page.getByRole("button", { name: "Update Book" }).click();
    await page.getByText("Book updated successfully!").waitFor();
    await page.waitForURL("**/dashboard/books");
    await card(page, "The Lighthouse Keeper's Daughter").waitFor();

    const edited = (await pageApi(page, `/api/books/${detail.id}`)).book as Json;
    expect(edited.genres).toEqual(["Mystery", "Thriller"]);
    expect(edited.retailerLinks.map((l: Json) => [l.id, l.retailerName])).toEqual([
      [detail.retailerLinks[1].id, "Waterstones UK"],
      [detail.retailerLinks[0].id, "Bookshop"],
    ]);
    expect(edited.reviews).toEqual([
      expect.objectContaining({ id: detail.reviews[0].id, reviewText: "Even better the second time." }),
    ]);

    // 'Update & View' saves and opens the book's page.
    await page.goto(`/edit-book/${detail.id}`);
    await expect.poll(() => title.inputValue()).toBe("The Lighthouse Keeper's Daughter");
    await page.getByLabel("Subtitle", { exact: true }).fill("A Cornish Mystery, Revised");
    await page.getByRole("button", { name: "Update & View" }).click();
    // The book's readable address, from its new title.
    const slug = "the-lighthouse-keeper-s-daughter";
    await page.waitForURL(`**/author/${author.subdomain}/book/${slug}`);
    await page.getByRole("heading", { name: "The Lighthouse Keeper's Daughter" }).first().waitFor();
    await page.getByText("A Cornish Mystery, Revised").first().waitFor();

    // The author's public site, on its own host.
    const site = `http://${author.subdomain}.localhost:${e.server.port}`;
    await page.goto(`${site}/books`);
    await page.getByText("Explore my collection of 1 published work.").waitFor();
    await page.getByText("The Lighthouse Keeper's Daughter").first().waitFor();
    await page
      .getByRole("link", { name: /View Details/ })
      .first()
      .click();
    await page.waitForURL(`${site}/book/${slug}`);
    for (const text of ["Even better the second time.", "Mystery", "Thriller", "Other stores"]) {
      await page.getByText(text).first().waitFor();
    }
    // Store links go through the site's counting redirect, to the stored address (ADR 036).
    const waterstones = page.getByRole("link", { name: "Waterstones UK", includeHidden: true });
    expect(await waterstones.getAttribute("href")).toMatch(new RegExp(`^/book/${slug}/buy/[0-9a-f-]{36}$`));
    const publicCover = page.locator(`img[src^="/uploads/covers/"]`).first();
    await expect
      .poll(() => publicCover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await shot(page, "public-book", { viewport: true });
    // Links shared before the rename, and the old id addresses, still reach the book.
    for (const old of ["the-lighthouse-keeper", detail.id]) {
      const res = await page.goto(`${site}/book/${old}`);
      expect(res?.status()).toBe(200);
      expect(page.url()).toBe(`${site}/book/${slug}`);
    }

    // Removing the cover on the edit screen leaves the placeholder.
    await page.goto(`${e.server.url}/edit-book/${detail.id}`);
    await page.getByTestId("cover-preview").waitFor();
    await page.getByRole("button", { name: "Remove cover" }).click();
    await page.getByText("The cover will be removed when you save.").waitFor();
    expect(await page.getByTestId("cover-preview").count()).toBe(0);
    await page.getByRole("button", { name: "Update Book" }).click();
    await page.waitForURL("**/dashboard/books");
    expect(((await pageApi(page, `/api/books/${detail.id}`)).book as Json).coverImageUrl).toBeNull();
  });

  it("reorders by buttons, 'Go to' and dragging; hides and shows; deletes with confirmation", async () => {
    const author = await createAuthor(e.server, { tier: "midi" });
    // A new book goes last: the list reads B0, B1, B2, B3.
    for (const t of ["B0", "B1", "B2", "B3"]) await apiCreate(author, { title: t, author: "Jane Writer" });
    const page = await signedIn(author);
    await page.goto("/dashboard/books");
    await cards(page).first().waitFor();
    expect(await cardTitles(page)).toEqual(["B0", "B1", "B2", "B3"]);
    const serverOrder = async () => ((await pageApi(page, "/api/books")).books as Json[]).map((b) => b.title);

    // Up and down.
    expect(await card(page, "B0").getByRole("button", { name: "Move up" }).isDisabled()).toBe(true);
    expect(await card(page, "B3").getByRole("button", { name: "Move down" }).isDisabled()).toBe(true);
    await card(page, "B0").getByRole("button", { name: "Move down" }).click();
    await page.getByText("Book order updated successfully").first().waitFor();
    await expect.poll(serverOrder).toEqual(["B1", "B0", "B2", "B3"]);
    expect(await cardTitles(page)).toEqual(["B1", "B0", "B2", "B3"]);
    await card(page, "B2").getByRole("button", { name: "Move up" }).click();
    await expect.poll(serverOrder).toEqual(["B1", "B2", "B0", "B3"]);

    // 'Go to' a position, clamped to 1..total.
    const goTo = async (title: string, position: string) => {
      const c = card(page, title);
      await c.getByLabel(/Go to position/).fill(position);
      await c.getByRole("button", { name: "Go to" }).click();
    };
    await goTo("B3", "1");
    await expect.poll(serverOrder).toEqual(["B3", "B1", "B2", "B0"]);
    await goTo("B3", "99");
    await expect.poll(serverOrder).toEqual(["B1", "B2", "B0", "B3"]);
    expect(
      await card(page, "B3")
        .getByLabel(/Go to position/)
        .inputValue(),
    ).toBe("4");
    await goTo("B0", "-5");
    await expect.poll(serverOrder).toEqual(["B0", "B1", "B2", "B3"]);
    await expect.poll(() => cardTitles(page)).toEqual(["B0", "B1", "B2", "B3"]);

    // Drag the first book onto the third.
    await drag(page, card(page, "B0").getByRole("button", { name: 'Drag to reorder "B0"' }), card(page, "B2"));
    await expect.poll(serverOrder).toEqual(["B1", "B2", "B0", "B3"]);
    await page.reload();
    await expect.poll(() => cardTitles(page)).toEqual(["B1", "B2", "B0", "B3"]);
    // And the last one up to the top.
    await drag(page, card(page, "B3").getByRole("button", { name: 'Drag to reorder "B3"' }), card(page, "B1"));
    await expect.poll(serverOrder).toEqual(["B3", "B1", "B2", "B0"]);

    // Hide: gone from Visible, counted in the badge, dimmed under All Books, gone publicly.
    const site = `http://${author.subdomain}.localhost:${e.server.port}`;
    await card(page, "B1").getByRole("button", { name: 'Hide "B1"' }).click();
    await page.getByText("Book hidden from public").waitFor();
    await expect.poll(() => cardTitles(page)).toEqual(["B3", "B2", "B0"]);
    expect(await page.getByTestId("hidden-count").textContent()).toBe("1 hidden");
    // Up and down step past the neighbour on screen, not into the hidden book between them.
    await card(page, "B2").getByRole("button", { name: "Move up" }).click();
    await expect.poll(serverOrder).toEqual(["B2", "B3", "B1", "B0"]);
    await expect.poll(() => cardTitles(page)).toEqual(["B2", "B3", "B0"]);
    await goTo("B2", "3");
    await expect.poll(serverOrder).toEqual(["B3", "B1", "B2", "B0"]);
    await expect.poll(() => cardTitles(page)).toEqual(["B3", "B2", "B0"]);
    await page.getByRole("button", { name: "All Books" }).click();
    await expect.poll(() => cardTitles(page)).toEqual(["B3", "B1", "B2", "B0"]);
    await card(page, "B1").getByText("Hidden", { exact: true }).waitFor();
    expect(await card(page, "B1").locator(".opacity-50").count()).toBe(1);
    expect(await card(page, "B2").locator(".opacity-50").count()).toBe(0);
    await shot(page, "dashboard-books-hidden", { viewport: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "dashboard-books-phone", { viewport: true });
    await page.goto("/add-book");
    await page.getByLabel("Title", { exact: true }).waitFor();
    await shot(page, "add-book-phone", { viewport: true });
    await page.goto("/dashboard/books");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "All Books" }).click();
    await expect.poll(() => cardTitles(page)).toEqual(["B3", "B1", "B2", "B0"]);

    const publicPage = await newPage(e);
    await publicPage.goto(`${site}/books`);
    await publicPage.getByText("Explore my collection of 3 published works.").waitFor();
    expect(await publicPage.getByText("B1", { exact: true }).count()).toBe(0);

    await card(page, "B1").getByRole("button", { name: 'Show "B1"' }).click();
    await page.getByText("Book now visible to public").waitFor();
    await page.getByTestId("hidden-count").waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Visible", exact: true }).click();
    await expect.poll(() => cardTitles(page)).toEqual(["B3", "B1", "B2", "B0"]);
    await publicPage.reload();
    await publicPage.getByText("Explore my collection of 4 published works.").waitFor();

    // Delete asks first; Cancel keeps the book.
    await card(page, "B2").getByRole("button", { name: 'Delete "B2"' }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText('Are you sure you want to remove "B2" from your collection?').waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await cardTitles(page)).toEqual(["B3", "B1", "B2", "B0"]);
    await card(page, "B2").getByRole("button", { name: 'Delete "B2"' }).click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await page.getByText("Book removed from your collection").waitFor();
    await expect.poll(() => cardTitles(page)).toEqual(["B3", "B1", "B0"]);
    await page.reload();
    await expect.poll(() => cardTitles(page)).toEqual(["B3", "B1", "B0"]);
    const positions = ((await pageApi(page, "/api/books")).books as Json[]).map((b) => b.sortOrder);
    expect(positions).toEqual([0, 1, 2]);
  });

  it("at the plan limit, Add Book opens 'Upgrade Required' with submit disabled", async () => {
    const author = await createAuthor(e.server, { tier: "mini" });
    for (let i = 1; i <= 4; i++) await apiCreate(author, { title: `Book ${i}`, author: "Jane Writer" });
    const page = await signedIn(author);

    // The fifth (the last the plan allows) through the form.
    await page.goto("/add-book");
    await page.getByLabel("Title", { exact: true }).fill("Book 5");
    await page.getByLabel("Author", { exact: true }).fill("Jane Writer");
    expect(await page.getByRole("dialog", { name: "Upgrade Required" }).count()).toBe(0);
    await page.getByRole("button", { name: "Add Book", exact: true }).click();
    await page.getByText('"Book 5" has been added to your collection!').waitFor();
    await page.waitForURL("**/dashboard/books");
    await expect.poll(() => cards(page).count()).toBe(5);

    await page.getByRole("link", { name: "Add Book" }).click();
    await page.waitForURL("**/add-book");
    const dialog = page.getByRole("dialog", { name: "Upgrade Required" });
    await dialog.waitFor();
    await dialog.getByText(/book limit of your Mini plan \(5 books\)/).waitFor();
    await shot(page, "add-book-limit", { viewport: true });
    // Behind the modal (hidden from the accessibility tree while it is open), and disabled.
    const submit = page.getByRole("button", { name: "Add Book", exact: true, includeHidden: true });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Upgrade Now" }).click();
    await page.waitForURL("**/dashboard/plan");

    // Closing the dialog without upgrading returns to the dashboard.
    await page.goto("/add-book");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Maybe Later" }).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    await page.goto("/add-book");
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await page.waitForURL((u) => u.pathname === "/dashboard");
    expect(((await pageApi(page, "/api/books")).books as Json[]).length).toBe(5);
  });
});
