// The Author Bio screen in the browser: the author writes a bio with bold text, saves it, and
// both the preview and the public site's About page show it. Pasted text loses its formatting.
import { expect, it } from "vitest";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("author bio", () => {
  it("writes a bio, saves it, and the About page shows it", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Bio" }).click();
    await page.getByRole("heading", { name: "Author Bio" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/bio");

    const editor = page.getByRole("textbox", { name: "Bio" });
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Delete");
    await page.keyboard.type("I write quiet books about ");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type("lighthouse keepers");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(".");
    expect(await editor.innerHTML()).toContain("<strong>lighthouse keepers</strong>");

    // Paste arrives as plain text: the heading and bold of the copied page are dropped.
    await editor.press("End");
    await editor.evaluate((el) => {
      const data = new DataTransfer();
      data.setData("text/html", "<h1>Loud heading</h1><p><b>Pasted</b> <i>words</i></p>");
      data.setData("text/plain", " Pasted words");
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const afterPaste = await editor.innerHTML();
    expect(afterPaste).toContain("Pasted words");
    expect(afterPaste).not.toContain("Loud heading");
    expect(afterPaste).not.toMatch(/<(strong|em|h1)>Pasted/);

    await page.getByLabel("Author tagline").fill("Stories from the edge of the sea");
    // A mistake is named before anything is sent.
    await page.getByLabel("Or link to a photo").fill("http://example.com/me.jpg");
    await page.getByRole("button", { name: "Save Bio" }).click();
    await page.getByText("Photo URL must start with https://").first().waitFor();
    await page.getByLabel("Or link to a photo").fill("");

    await page.getByRole("button", { name: "Save Bio" }).click();
    await page.getByText("Bio updated successfully!").waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/bio");

    // The saved bio comes back on the next visit.
    await page.reload();
    await page.getByRole("heading", { name: "Author Bio" }).waitFor();
    await page.getByRole("textbox", { name: "Bio" }).getByText("lighthouse keepers").waitFor();
    expect(await page.getByLabel("Author tagline").inputValue()).toBe("Stories from the edge of the sea");

    await page.getByRole("button", { name: "Save & View" }).click();
    await page.waitForURL((url) => url.pathname === `/author/${author.subdomain}/about`);
    const bold = page.locator(".prose strong", { hasText: "lighthouse keepers" });
    await bold.waitFor();
    await page.getByText("Stories from the edge of the sea").first().waitFor();

    const site = await page.context().newPage();
    await site.goto(`http://${author.subdomain}.localhost:${e.server.port}/about`);
    await site.locator(".prose strong", { hasText: "lighthouse keepers" }).waitFor();
    // The editor may keep a typed space as &nbsp;, so compare words, not bytes.
    const text = (await site.locator(".prose").textContent())?.replace(/\s+/g, " ");
    expect(text).toContain("I write quiet books about lighthouse keepers.");
  });

  it("links words to an address from the editor's link bar, and refuses what is not a web address", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto("/dashboard/bio");
    const editor = page.getByRole("textbox", { name: "Bio" });
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Delete");
    await page.keyboard.type("Published by Harbour Press");
    // Select "Harbour Press" and link it.
    for (let i = 0; i < "Harbour Press".length; i++) await page.keyboard.press("Shift+ArrowLeft");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    const address = page.getByLabel("Link address");
    await expect.poll(() => address.evaluate((el) => el === document.activeElement)).toBe(true);

    await address.fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Apply" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Please enter a link starting with http:// or https://" })
      .waitFor();
    expect(await editor.innerHTML()).not.toContain("<a");

    // Enter applies the link; it must not submit the bio form.
    await address.fill("https://harbour.example/press");
    await address.press("Enter");
    await expect.poll(() => address.count()).toBe(0);
    expect(await editor.innerHTML()).toMatch(
      /<a [^>]*href="https:\/\/harbour\.example\/press"[^>]*>Harbour Press<\/a>/,
    );
    expect(await page.getByText("Bio updated successfully!").count()).toBe(0);

    // With nothing selected, the address itself becomes the link text; Escape closes the bar.
    await editor.press("End");
    await page.keyboard.type(". Site: ");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await address.press("Escape");
    await expect.poll(() => address.count()).toBe(0);
    await page.getByRole("button", { name: "Link", exact: true }).click();
    // An address typed without its scheme is taken as https.
    await address.fill("harbour.example");
    await page.getByRole("button", { name: "Apply" }).click();
    await editor.getByRole("link", { name: "https://harbour.example" }).waitFor();
    // With nothing selected the bar asks for the words too, and links them (on a phone here).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.keyboard.type(" Events: ");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await page.getByLabel("Link text").fill("my events page");
    await address.fill("https://harbour.example/events");
    await page.screenshot({ path: "/tmp/polish-link-text.png" });
    await address.press("Enter");
    await editor.getByRole("link", { name: "my events page" }).waitFor();
    expect(await editor.innerHTML()).toContain('href="https://harbour.example/events"');
    // Text selected: the words are the selection, so no text field.
    await page.keyboard.press("Shift+ArrowLeft");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    expect(await page.getByLabel("Link text").count()).toBe(0);
    await address.press("Escape");

    await page.getByRole("button", { name: "Save Bio" }).click();
    await page.getByText("Bio updated successfully!").waitFor();
    const site = await page.context().newPage();
    await site.goto(`http://${author.subdomain}.localhost:${e.server.port}/about`);
    const link = site.locator(".prose a", { hasText: "Harbour Press" });
    expect(await link.getAttribute("href")).toBe("https://harbour.example/press");
    expect(await link.getAttribute("rel")).toContain("noopener");
    expect(await site.locator('.prose a[href="https://harbour.example"]').count()).toBe(1);
  });

  it("says when the profile cannot be loaded, and tries again", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.route("**/api/profile", (route) => route.fulfill({ status: 500, body: "" }));
    await page.goto("/dashboard/bio");
    await page.getByText("Failed to load profile data.").waitFor({ timeout: 20_000 });
    await page.unroute("**/api/profile");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("heading", { name: "Author Bio" }).waitFor();
    // A new author starts on an empty page, not on the site's placeholder text.
    expect((await page.getByRole("textbox", { name: "Bio" }).textContent())?.trim()).toBe("");
  });

  it("tells the writing journey: add, reorder, remove; genre above the name; none told, none shown", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto("/dashboard/bio");
    await page.getByText("No milestones yet.").waitFor();

    await page.getByLabel("Main genre").fill("Cosy Mystery");
    await page.getByRole("button", { name: "Add Milestone" }).click();
    await page.getByLabel("Year 1", { exact: true }).fill("2012");
    await page.getByLabel("Milestone 1", { exact: true }).fill("First notebook");
    await page.getByLabel("Description 1", { exact: true }).fill("Filled on the night bus.");
    // An empty milestone is refused before anything is sent.
    await page.getByRole("button", { name: "Add Milestone" }).click();
    await page.getByRole("button", { name: "Save Bio" }).click();
    await page
      .getByRole("list", { name: "Writing journey" })
      .getByRole("alert")
      .filter({ hasText: "Year is required" })
      .waitFor();
    await page.getByLabel("Year 2", { exact: true }).fill("Today");
    await page.getByLabel("Milestone 2", { exact: true }).fill("Book three");
    await page.getByRole("button", { name: "Move milestone 2 up" }).click();
    expect(await page.getByLabel("Milestone 1", { exact: true }).inputValue()).toBe("Book three");
    await page.getByRole("button", { name: "Save Bio" }).click();
    await page.getByText("Bio updated successfully!").waitFor();

    const site = await page.context().newPage();
    const about = `http://${author.subdomain}.localhost:${e.server.port}/about`;
    await site.goto(about);
    await site.getByText("Cosy Mystery", { exact: true }).waitFor();
    const journey = site.getByRole("region", { name: "My Writing Journey" });
    const cards = journey.getByRole("listitem");
    expect(await cards.allInnerTexts()).toEqual([
      expect.stringContaining("Book three"),
      expect.stringContaining("First notebook"),
    ]);
    expect(await cards.nth(1).textContent()).toContain("Filled on the night bus.");

    // Kept after a reload of the screen; then both removed: with no bio, photo or journey left the
    // About page has nothing of the author's, so readers get a 404, not an empty page (ADR 052).
    await page.reload();
    expect(await page.getByLabel("Milestone 2", { exact: true }).inputValue()).toBe("First notebook");
    await page.getByRole("button", { name: "Remove milestone 2" }).click();
    await page.getByRole("button", { name: "Remove milestone 1" }).click();
    await page.getByRole("button", { name: "Save Bio" }).click();
    await page.getByText("No milestones yet.").waitFor();
    await expect.poll(async () => (await site.reload())?.status()).toBe(404);
    expect(await site.getByText("My Writing Journey").count()).toBe(0);
  });
});
