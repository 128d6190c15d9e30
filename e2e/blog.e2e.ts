// The Blog screen in the browser: the author writes a post with bold text under Events, sees it
// in the list and on the public blog's Events filter, renames it, and deletes it after the
// confirmation. A blank form is refused with the spec's message before anything is sent.
import { expect, it } from "vitest";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("author blog", () => {
  it("creates, shows, edits and deletes a post", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).click();
    await page.getByRole("heading", { name: "Blog", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/blog");
    await page.getByRole("heading", { name: "No posts yet" }).waitFor();
    expect(await page.getByRole("link", { name: "View on site" }).getAttribute("href")).toBe(
      `/author/${author.subdomain}/blog`,
    );

    // A blank form is refused, and nothing is sent.
    let posted = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/posts") posted++;
    });
    await page.getByRole("button", { name: "New Post" }).first().click();
    await page.getByRole("heading", { name: "New Post" }).waitFor();
    await page.getByRole("button", { name: "Create Post" }).click();
    await page.getByRole("alert").filter({ hasText: "Please fill in all fields" }).waitFor();
    expect(await page.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");
    // A title alone is still not enough.
    await page.getByLabel("Title").fill("Launch at the Harbour Bookshop");
    await page.getByRole("button", { name: "Create Post" }).click();
    await page.getByRole("alert").filter({ hasText: "Please fill in all fields" }).waitFor();
    expect(posted).toBe(0);
    // Typing again takes the banner away: the author is already fixing it.
    await page.getByLabel("Title").fill("Launch at the Harbour Bookshop!");
    await page.getByRole("alert").filter({ hasText: "Please fill in all fields" }).waitFor({ state: "detached" });
    await page.getByLabel("Title").fill("Launch at the Harbour Bookshop");

    await page.getByLabel("Category").selectOption("events");
    const editor = page.getByRole("textbox", { name: "Content" });
    await editor.click();
    await page.keyboard.type("Join me for the ");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type("launch party");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(" on Saturday.");
    expect(await editor.innerHTML()).toContain("<strong>launch party</strong>");
    await page.getByRole("button", { name: "Create Post" }).click();
    await page.getByText("Post created successfully!").waitFor();
    expect(posted).toBe(1);

    const list = page.getByRole("list", { name: "Posts" });
    const item = list.getByRole("listitem").filter({ hasText: "Launch at the Harbour Bookshop" });
    await item.waitFor();
    await item.getByText("Events", { exact: true }).waitFor();
    const today = new Date().toLocaleDateString("en-GB", { timeZone: "UTC" });
    await item.getByText(today).waitFor();

    // The public blog shows it under Events (and not under News), bold intact.
    const site = await page.context().newPage();
    const origin = `http://${author.subdomain}.localhost:${e.server.port}`;
    await site.goto(`${origin}/blog`);
    await site.getByRole("link", { name: "Events", exact: true }).click();
    await site.waitForURL((url) => url.searchParams.get("category") === "events");
    const post = site.getByRole("article").filter({ hasText: "Launch at the Harbour Bookshop" });
    await post.waitFor();
    expect(await post.locator("strong", { hasText: "launch party" }).count()).toBe(1);
    await site.goto(`${origin}/blog?category=news`);
    expect(await site.getByRole("article").count()).toBe(0);

    // Rename it.
    await item.getByRole("button", { name: /^Edit/ }).click();
    await page.getByRole("heading", { name: "Edit Post" }).waitFor();
    expect(await page.getByLabel("Category").inputValue()).toBe("events");
    await page.getByLabel("Title").fill("Launch moved to Sunday");
    await page.getByRole("button", { name: "Update Post" }).click();
    await page.getByText("Post updated successfully!").waitFor();
    const renamed = list.getByRole("listitem").filter({ hasText: "Launch moved to Sunday" });
    await renamed.waitFor();
    expect(await list.getByRole("listitem").count()).toBe(1);
    await site.goto(`${origin}/blog?category=events`);
    await site.getByRole("heading", { name: "Launch moved to Sunday" }).waitFor();
    // The post's own page, from its title in the list; the old address follows the rename.
    await site.getByRole("link", { name: "Launch moved to Sunday" }).click();
    await site.waitForURL(`${origin}/blog/launch-moved-to-sunday`);
    await site.getByRole("heading", { level: 1, name: "Launch moved to Sunday" }).waitFor();
    await site.goto(`${origin}/blog/launch-at-the-harbour-bookshop`);
    expect(new URL(site.url()).pathname).toBe("/blog/launch-moved-to-sunday");
    expect(
      await renamed.getByRole("link", { name: 'View "Launch moved to Sunday" on your site' }).getAttribute("href"),
    ).toBe(`/author/${author.subdomain}/blog/launch-moved-to-sunday`);

    // Delete asks first; Cancel keeps the post.
    await renamed.getByRole("button", { name: /^Delete/ }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("Are you sure you want to delete this post?").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await list.getByRole("listitem").count()).toBe(1);

    await renamed.getByRole("button", { name: /^Delete/ }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("Post deleted successfully!").waitFor();
    await page.getByRole("heading", { name: "No posts yet" }).waitFor();
    // The last post gone, the Blog leaves the site until there is another (ADR 052).
    expect((await site.goto(`${origin}/blog`))?.status()).toBe(404);
    expect(await site.getByText("Launch moved to Sunday").count()).toBe(0);
  });

  it("sets the blog page's title and description, and readers see them", async () => {
    const author = await createAuthor(e.server);
    // The author shows the Blog before the first post (an empty Blog is otherwise hidden, ADR 052).
    const shown = await e.server.api("/api/site/settings", {
      method: "PATCH",
      cookie: author.cookie,
      json: { showWhenEmpty: ["blog"] },
    });
    expect(shown.status).toBe(200);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto("/dashboard/blog");
    const section = page.getByRole("region", { name: "Blog page" });
    await section.getByLabel("Page title").fill("Notes from the Desk");
    await section.getByLabel("Page description").fill("Letters, launches and the odd recipe.");
    await section.getByRole("button", { name: "Save Blog Page" }).click();
    await page.getByText("Blog page saved successfully!").waitFor();

    const site = await page.context().newPage();
    await site.goto(`http://${author.subdomain}.localhost:${e.server.port}/blog`);
    await site.getByRole("heading", { level: 1, name: "Notes from the Desk" }).waitFor();
    await site.getByText("Letters, launches and the odd recipe.").waitFor();

    // Emptied, the defaults are back.
    await section.getByLabel("Page title").fill("");
    await section.getByLabel("Page description").fill("");
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/site/blog") && r.request().method() === "PUT");
    await section.getByRole("button", { name: "Save Blog Page" }).click();
    expect((await saved).status()).toBe(200);
    await site.reload();
    await site.getByRole("heading", { level: 1, name: "Blog" }).waitFor();
  });
});
