// Site Settings in the browser: the author changes the name, turns a page off and picks a font
// and colour; a reader sees it on the site at once. Bad input is caught before saving.
import { expect, it } from "vitest";
import { createAuthor } from "../src/testing/users.ts";
import {
  browserDescribe,
  clickAndSave,
  createAuthorAccount,
  firstLink,
  newPage,
  setupE2E,
  shot,
  signInThroughUi,
} from "./fixtures.ts";

const e = setupE2E();

browserDescribe("site settings", () => {
  it("changes the name, the pages and the look, and the public site follows", async () => {
    const author = await createAuthor(e.server);
    // A book and a post, so that Books and Blog are in the site's menu (empty ones are not, ADR 052).
    for (const [path, json] of [
      ["/api/books", { title: "Harbour Lights", author: "Jane Author" }],
      ["/api/posts", { title: "News", content: "<p>News</p>" }],
    ] as const) {
      expect((await e.server.api(path, { method: "POST", cookie: author.cookie, json })).status).toBe(201);
    }
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Site Settings" }).waitFor();

    expect(await page.getByRole("switch", { name: "Home" }).isDisabled()).toBe(true);
    await page.getByLabel("Website name").fill("The Harbour Shelf");
    await page.getByRole("switch", { name: "Blog" }).uncheck();
    await page.getByLabel("Font").selectOption("playfair-display");
    await page.getByLabel("Accent colour", { exact: true }).fill("#b91c1c");

    // A mistake is named before anything is sent.
    await page.getByLabel("Button colour", { exact: true }).fill("blue");
    await page.getByRole("button", { name: "Save Settings" }).first().click();
    await page.getByText("Button colour must be a colour like #6366f1").waitFor();
    await page.getByLabel("Button colour", { exact: true }).fill("#2563eb");
    await page.getByRole("button", { name: "Save Settings" }).first().click();
    await page.getByText("Settings updated successfully!").waitFor();

    const site = await page.context().newPage();
    await site.goto(`http://${author.subdomain}.localhost:${e.server.port}/`);
    await site.getByText("The Harbour Shelf").first().waitFor();
    const nav = site.getByRole("navigation").first();
    expect(await nav.getByRole("link", { name: "Blog" }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Books" }).count()).toBe(1);
    expect(await site.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("Playfair Display");
    const res = await site.goto(`http://${author.subdomain}.localhost:${e.server.port}/blog`);
    expect(res?.status()).toBe(404);

    // The saved values come back on the next visit.
    await page.reload();
    expect(await page.getByLabel("Website name").inputValue()).toBe("The Harbour Shelf");
    expect(await page.getByRole("switch", { name: "Blog" }).isChecked()).toBe(false);
    expect(await page.getByLabel("Accent colour", { exact: true }).inputValue()).toBe("#b91c1c");
  });

  it("sets the contact address and social links; the contact page shows them", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Contact" }).click();
    await page.getByRole("heading", { name: "Contact Settings" }).waitFor();

    await page.getByLabel("Contact email").fill("letters@example.com");
    await page.getByLabel("Instagram", { exact: true }).fill("instagram.com/jane");
    await page.getByLabel("Show Instagram").check();
    await page.getByRole("button", { name: "Save Contact Settings" }).click();
    await page.getByText("Please enter a full link for Instagram, starting with https://").waitFor();
    await page.getByLabel("Instagram", { exact: true }).fill("https://instagram.com/jane");
    await page.getByLabel("Bluesky", { exact: true }).fill("https://bsky.app/profile/jane");
    await page.getByRole("button", { name: "Save Contact Settings" }).click();
    await page.getByText("Contact settings saved successfully!").waitFor();

    const site = await page.context().newPage();
    await site.goto(`http://${author.subdomain}.localhost:${e.server.port}/contact`);
    await site.getByText("l*****s@example.com").waitFor();
    const main = site.getByRole("main");
    expect(await main.getByRole("link", { name: "Instagram" }).getAttribute("href")).toBe("https://instagram.com/jane");
    // Filled in but not switched on: not shown.
    expect(await main.getByRole("link", { name: "Bluesky" }).count()).toBe(0);

    await page.reload();
    expect(await page.getByLabel("Bluesky", { exact: true }).inputValue()).toBe("https://bsky.app/profile/jane");
    expect(await page.getByLabel("Show Bluesky").isChecked()).toBe(false);
  });

  it("switches between a provider's embed and the site's own list, whose readers appear once confirmed", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Newsletter" }).click();
    await page.getByRole("heading", { name: "Newsletter", exact: true }).waitFor();
    await page.getByText("0 confirmed, 0 waiting to confirm").waitFor();

    await page.getByRole("switch", { name: "Use my email provider's sign-up form" }).check();
    const save = page.getByRole("button", { name: "Save Newsletter Settings" });
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel("Embed code").fill("Sign up to my list!");
    await page
      .getByText("This doesn't look like a valid embed code. Make sure to include the complete HTML form or script.")
      .waitFor();
    await page
      .getByLabel("Embed code")
      .fill('<form action="https://list.example.com/s" method="post"><input name="email"><button>Join</button></form>');
    await save.click();
    await page.getByText("Newsletter settings saved successfully!").waitFor();

    const site = `http://${author.subdomain}.localhost:${e.server.port}`;
    const reader = await page.context().newPage();
    await reader.goto(`${site}/newsletter`);
    expect(await reader.locator("iframe[sandbox]").count()).toBe(1);
    // The frame takes the height of what it holds (the 28rem default is far taller than one field).
    const frame = reader.locator("iframe.embed");
    const inner = reader.frameLocator("iframe.embed").locator("body");
    await inner.getByRole("button", { name: "Join" }).waitFor();
    const fits = async () => {
      const outer = (await frame.boundingBox())?.height ?? 0;
      const content = await inner.evaluate((b) => b.getBoundingClientRect().bottom + 8);
      return Math.abs(outer - content) <= 2;
    };
    await expect.poll(fits).toBe(true);
    // A provider's form that grows (a second step) grows the frame with it.
    await inner.evaluate((b) => {
      const more = document.createElement("div");
      more.style.height = "600px";
      b.append(more);
    });
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(600);
    await expect.poll(fits).toBe(true);

    // Back to the site's own form: a reader signs up and confirms through the mail.
    await page.getByRole("switch", { name: "Use my email provider's sign-up form" }).uncheck();
    await clickAndSave(page, save);
    await page.getByText("Newsletter settings saved successfully!").first().waitFor();
    // Without a provider's form, the page waits until the author chooses the site's own (ADR 052).
    await reader.goto(`${site}/newsletter`);
    expect(await reader.getByRole("heading", { name: "Page not found" }).count()).toBe(1);
    const own = page.getByRole("switch", { name: "Show the Newsletter page with your site's own sign-up form" });
    // Checked once the server has saved it (the switch shows the saved state).
    await own.click();
    await expect.poll(() => own.isChecked()).toBe(true);
    const fan = `fan-${Date.now()}@example.com`;
    await reader.goto(`${site}/newsletter`);
    await reader.getByLabel("Email address").fill(fan);
    await reader.getByRole("button", { name: "Subscribe" }).click();
    await reader.getByText("Thank you for subscribing! You'll hear from me soon.").waitFor();
    const mail = await e.server.smtp.waitFor(fan, "Please confirm your newsletter subscription");
    await reader.goto(firstLink(mail.text));
    await reader.getByRole("button", { name: "Confirm subscription" }).click();

    await page.reload();
    await page.getByText("1 confirmed, 0 waiting to confirm").waitFor();
    // The list itself is the Subscribers tab: the reader, and the page they signed up on.
    await page.getByRole("link", { name: "See and import subscribers" }).click();
    const row = page.getByTestId("subscriber-list").getByRole("listitem").filter({ hasText: fan });
    await row.getByText("on /newsletter").waitFor();
    await row.getByText("Confirmed", { exact: true }).filter({ visible: true }).waitFor();
    const csv = await page.evaluate(async () => (await fetch("/api/newsletter/subscribers.csv")).text());
    expect(csv).toContain(fan);
  });
  it("writes the Privacy & Legal page; readers see it, and stop seeing it when it is switched off", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Legal" }).click();
    await page.getByRole("heading", { name: "Privacy & Legal" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/legal");
    expect(await page.getByRole("switch", { name: "Show the Privacy & Legal page" }).isChecked()).toBe(true);

    // The editor starts from the notice readers see now, written from what the site collects.
    await page.getByTestId("legal-generated").waitFor();
    const editor = page.getByRole("textbox", { name: "Page text" });
    await editor.getByText(/This notice explains what/).waitFor();
    await editor.getByText(/Contact messages/).waitFor();
    const before = `http://${author.subdomain}.localhost:${e.server.port}/privacy`;
    const reading = await page.context().newPage();
    await reading.goto(before);
    await reading.getByText(/This notice explains what/).waitFor();
    await reading.close();
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      // Looked at, not measured here: the Settings tabs' width at 390 px is issue 30 item 2's.
      await page.setViewportSize({ width, height });
      await shot(page, `legal-generated-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await editor.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    await page.keyboard.type("We keep ");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type("only what you send us");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(".");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Legal content saved successfully!").waitFor();

    const site = await page.context().newPage();
    const privacy = `http://${author.subdomain}.localhost:${e.server.port}/privacy`;
    await site.goto(privacy);
    await site.locator(".prose strong", { hasText: "only what you send us" }).waitFor();

    // The saved text comes back on the next visit; switched off, the page is gone (ADR 052).
    await page.reload();
    await page.getByRole("textbox", { name: "Page text" }).getByText("only what you send us").waitFor();
    await page.getByRole("switch", { name: "Show the Privacy & Legal page" }).uncheck();
    await clickAndSave(page, page.getByRole("button", { name: "Save", exact: true }));
    await page.getByText("Legal content saved successfully!").first().waitFor();
    expect((await site.goto(privacy))?.status()).toBe(404);
    expect(await site.getByText("only what you send us").count()).toBe(0);
  });
  it("opens the home page with a hero image in the author's colours, with news below", async () => {
    const author = await createAuthor(e.server);
    // A book, so that the hero offers View Books (an empty Books is not offered, ADR 052).
    const book = { title: "Harbour Lights", author: "Jane Author" };
    expect((await e.server.api("/api/books", { method: "POST", cookie: author.cookie, json: book })).status).toBe(201);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Home Page" }).click();
    await page.getByRole("heading", { name: "Home Page" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/home");

    await page.getByLabel(/^Hero: full-screen image/).check();
    // A mistake is named before anything is sent.
    await page.getByLabel("Or link to an image").fill("http://images.example/coast.jpg");
    await page.getByRole("button", { name: "Save Home Page" }).click();
    await page.getByText("Hero image must be an address starting with https://").waitFor();
    await page.getByLabel("Or link to an image").fill("https://images.example/coast.jpg");
    await page.getByLabel("First button (View Books)", { exact: true }).fill("#b91c1c");
    await page.getByRole("textbox", { name: "More on the home page" }).click();
    await page.keyboard.type("My new book is out in May.");
    await page.getByRole("button", { name: "Save Home Page" }).click();
    await page.getByText("Home page settings updated successfully!").waitFor();

    const site = await page.context().newPage();
    await site.goto(`http://${author.subdomain}.localhost:${e.server.port}/`);
    const hero = site.locator("section.hero");
    await hero.waitFor();
    expect(await hero.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain(
      "https://images.example/coast.jpg",
    );
    const viewBooks = hero.getByRole("link", { name: "View Books" });
    expect(await viewBooks.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(185, 28, 28)");
    await site.getByText("My new book is out in May.").waitFor();

    // Back to a simple opening: the hero is gone, the news stays.
    await page.getByLabel("Simple, centred").check();
    await clickAndSave(page, page.getByRole("button", { name: "Save Home Page" }));
    await page.getByText("Home page settings updated successfully!").first().waitFor();
    await site.reload();
    await site.getByText("My new book is out in May.").waitFor();
    expect(await site.locator("section.hero").count()).toBe(0);
  });
});
