// The author's first ten minutes (issue 30): from the landing page to a public page showing the
// first book with its cover and a buy button that works, as a new author in a real browser. Every
// main-frame navigation (page loads and SPA route changes) is logged; the screens are those the
// author looks at and acts on. At most 9, and the count and the time are printed for
// bench/RESULTS.md.
import type { Page } from "playwright-core";
import sharp from "sharp";
import { expect, it } from "vitest";
import {
  browserDescribe,
  createAuthorAccount,
  firstLink,
  newPage,
  PASSWORD,
  setupE2E,
  shot,
  signInThroughUi,
  uniqueEmail,
} from "./fixtures.ts";

const e = setupE2E();

const coverPng = () =>
  sharp({ create: { width: 400, height: 600, channels: 3, background: { r: 120, g: 30, b: 40 } } })
    .png()
    .toBuffer();

/** Main-frame URLs as the author's browser went through them, a repeat of the same one once. */
function logNavigations(page: Page): string[] {
  const log: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame !== page.mainFrame()) return;
    const u = new URL(frame.url());
    const at = `${u.host}${u.pathname}`;
    if (log.at(-1) !== at) log.push(at);
  });
  return log;
}

browserDescribe("the first book, from the landing page", () => {
  it("reaches the book's public page with its cover and a working buy button in at most 9 screens", async () => {
    const started = performance.now();
    const page = await newPage(e);
    const navigations = logNavigations(page);
    const screens: string[] = [];
    const screen = (name: string) => screens.push(`${screens.length + 1}. ${name} (${new URL(page.url()).pathname})`);
    const email = uniqueEmail("firstpath");
    const subdomain = `fp${Date.now().toString(36)}`;
    const port = new URL(e.server.url).port;

    await page.goto("/");
    await page.getByRole("heading", { name: "A website as good as your books" }).waitFor();
    screen("landing");
    await page.getByRole("link", { name: "Start your free trial" }).first().click();

    await page.waitForURL((url) => url.pathname === "/signup");
    screen("sign-up");
    await page.getByLabel("Full name").fill("First Path Writer");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    screen("check your email");
    const mail = await e.server.smtp.waitFor(email, "Confirm your email");
    // The author follows the mailed link in the same browser.
    await page.goto(firstLink(mail.text));

    await page.waitForURL((url) => url.pathname === "/onboarding");
    await page.getByText("Step 1 of 3").waitFor();
    screen("wizard: about you");
    expect(await page.getByLabel("Full Name").inputValue()).toBe("First Path Writer");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Step 2 of 3").waitFor();
    screen("wizard: your website");
    await page.getByLabel("Website Name").fill("First Path Books");
    await page.getByLabel("Choose Your URL").fill(subdomain);
    await page.getByTestId("subdomain-status").getByText("Available").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Step 3 of 3").waitFor();
    screen("wizard: your plan");
    // The landing's button chose the plan the pricing page recommends.
    expect(await page.getByRole("radio", { name: /^Midi/ }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Start Trial & Enter Payment" }).click();

    // Straight on to payment: no 'set up' screen in between.
    await page.waitForURL("**/billing/sandbox/checkout**", { timeout: 20_000 });
    screen("checkout");
    await page.getByRole("button", { name: "Pay / Start trial" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByText("Subscription status updated!").waitFor({ timeout: 10_000 });
    screen("dashboard overview");

    // The getting-started list: nothing done yet on a new site, each item from real data.
    const checklist = page.getByTestId("checklist");
    await page.getByTestId("checklist-progress").getByText("0 of 5 done").waitFor();
    expect(await checklist.locator("li[data-done]").count()).toBe(5);
    expect(await checklist.locator('li[data-done="true"]').count()).toBe(0);

    const card = page.getByTestId("first-book");
    await card.getByRole("heading", { name: "Add your first book" }).waitFor();
    // Nothing typed: a clear message, and no book made.
    await card.getByRole("button", { name: "Add book" }).click();
    await card.getByText("Title is required").waitFor();
    expect(await card.getByLabel("Author *").inputValue()).toBe("First Path Writer");
    await card.getByLabel("Title *").fill("The Long Way Round");
    await card
      .getByLabel("Cover")
      .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await coverPng() });
    await card.getByLabel("Store link").fill("https://www.amazon.com/dp/B0FIRSTPTH");
    await card.getByRole("button", { name: "Add book" }).click();
    const view = card.getByRole("link", { name: "View it on your site" });
    await view.waitFor();
    // Still the overview: added without leaving it.
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    await page.getByTestId("checklist-progress").getByText("1 of 5 done").waitFor();
    expect(await page.getByTestId("checklist-books").getAttribute("data-done")).toBe("true");
    const origin = `http://${subdomain}.localhost:${port}`;
    expect(await view.getAttribute("href")).toBe(`${origin}/book/the-long-way-round`);
    await shot(page, "first-book-overview-added");

    await view.click();
    await page.waitForURL(`${origin}/book/the-long-way-round`);
    await page.getByRole("heading", { name: "The Long Way Round" }).first().waitFor();
    screen("the book's public page");
    const cover = page.getByRole("img", { name: "Cover of The Long Way Round" }).first();
    await cover.waitFor();
    expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const buy = page.getByRole("link", { name: "Buy From Amazon.com" });
    await buy.waitFor();
    const buyHref = (await buy.getAttribute("href")) ?? "";
    expect(buyHref).toMatch(/\/book\/the-long-way-round\/buy\//);
    const seconds = (performance.now() - started) / 1000;

    const path = [...navigations];

    // The buy button works: the reader is sent on to the store (stood in for here).
    await page
      .context()
      .route(/^https:\/\/www\.amazon\.com\//, (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Store</h1>" }),
      );
    const redirect = page.waitForResponse((r) => new URL(r.url()).pathname === new URL(buyHref, page.url()).pathname);
    await buy.click();
    const answer = await redirect;
    expect([301, 302, 303, 307]).toContain(answer.status());
    expect(answer.headers().location).toBe("https://www.amazon.com/dp/B0FIRSTPTH");
    await page.waitForURL("https://www.amazon.com/dp/B0FIRSTPTH");

    // Every navigation is one of the screens, bar the mailed link's landing, which passes straight on.
    const passThrough = path.filter((n) => n.endsWith("/verify-email"));
    expect(passThrough).toHaveLength(1);
    expect(path.length - passThrough.length).toBeLessThanOrEqual(screens.length);
    console.log(
      `first book: ${screens.length} screens, ${path.length} navigations, ${seconds.toFixed(1)} s\n  ${screens.join("\n  ")}\n  navigations: ${path.join(" → ")}`,
    );
    expect(screens.length).toBeLessThanOrEqual(9);
    await page.context().close();
  });

  it("fits a phone, and the checklist can be hidden for good, on this device and another", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByTestId("first-book").getByRole("heading", { name: "Add your first book" }).waitFor();
    await page.getByTestId("checklist-progress").getByText("0 of 5 done").waitFor();
    const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(scroll).toBeLessThanOrEqual(width);
    await shot(page, "first-book-overview-390");

    await page.getByRole("button", { name: "Hide this list" }).click();
    // Gone at once (the screen does not wait for the server), but only after React's next render.
    await page.getByTestId("checklist").waitFor({ state: "detached", timeout: 5_000 });
    // What readers don't see stays said, without the list.
    await page.getByTestId("empty-sections").getByText("What readers don't see yet").waitFor();
    await page.reload();
    await page.getByTestId("empty-sections").getByText("What readers don't see yet").waitFor();
    expect(await page.getByTestId("checklist").count()).toBe(0);
    await page.context().close();

    // Another device: a new browser with nothing stored, signed in afresh. The list stays hidden.
    const other = await newPage(e);
    await signInThroughUi(other, author.email);
    await other.waitForURL((url) => url.pathname === "/dashboard");
    await other.getByTestId("empty-sections").getByText("What readers don't see yet").waitFor();
    expect(await other.getByTestId("checklist").count()).toBe(0);
    expect(await other.getByTestId("checklist-progress").count()).toBe(0);

    await shot(other, "dashboard-list-hidden", { viewport: true });
    await other.setViewportSize({ width: 390, height: 844 });
    await shot(other, "dashboard-list-hidden-390", { viewport: true });
    // The author changes their mind: the list comes back, here and after a reload.
    await other.getByRole("button", { name: "Show the getting-started list" }).click();
    await other.getByTestId("checklist").waitFor();
    await other.reload();
    await other.getByTestId("checklist").waitFor();
    expect(await other.getByRole("button", { name: "Show the getting-started list" }).count()).toBe(0);
    await other.context().close();
  });
});
