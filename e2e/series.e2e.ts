// The Series screen in the browser: the author reorders a series by dragging with the keyboard
// and with the arrows, describes and renames it, and the public series page follows each change.
import { expect, it } from "vitest";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("series", () => {
  it("reorders, describes and renames a series, and the site follows", async () => {
    const author = await createAuthor(e.server, { tier: "midi" });
    for (const [title, n] of [
      ["The First Frost", 1],
      ["The Thaw", 2],
      ["The Long Summer", 3],
    ] as const) {
      const res = await e.server.api("/api/books", {
        method: "POST",
        cookie: author.cookie,
        json: { title, author: "Jane", seriesName: "Four Seasons", orderInSeries: n },
      });
      expect(res.status).toBe(201);
    }
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto("/dashboard/books");
    await page.getByRole("link", { name: "Series", exact: true }).click();
    await page.getByRole("heading", { name: "Series", level: 1 }).waitFor();
    const order = page.getByRole("region", { name: "Reading order of Four Seasons" });
    const titles = () =>
      order.getByTestId("series-book").evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));
    expect(await titles()).toEqual(["The First Frost", "The Thaw", "The Long Summer"]);

    // Drag with the keyboard: pick up the third book, move it up twice, drop it.
    await order.getByRole("button", { name: 'Drag to reorder "The Long Summer"' }).focus();
    // dnd-kit moves the item between key presses: give each step a frame or two.
    for (const key of ["Space", "ArrowUp", "ArrowUp", "Space"]) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
    await page.getByText("Reading order saved").waitFor();
    expect(await titles()).toEqual(["The Long Summer", "The First Frost", "The Thaw"]);
    // And with the arrows.
    await order.getByRole("button", { name: 'Move "The Thaw" earlier' }).click();
    await expect.poll(titles).toEqual(["The Long Summer", "The Thaw", "The First Frost"]);

    const site = await page.context().newPage();
    const origin = `http://${author.subdomain}.localhost:${e.server.port}`;
    await site.goto(`${origin}/series/four-seasons`);
    const shown = () => site.locator("main h2").allInnerTexts();
    expect(await shown()).toEqual(["The Long Summer", "The Thaw", "The First Frost"]);
    await site.getByText("Start here").waitFor();

    // Describe and rename: the page moves to the new address, with the description.
    const edit = page.getByRole("form", { name: "Edit Four Seasons" });
    await edit.getByLabel("Description").fill("A year in a northern village, told in four books.");
    await edit.getByLabel("Series name").fill("The Village Year");
    await edit.getByRole("button", { name: "Save Series" }).click();
    await page.getByText("Series saved").waitFor();
    await page.getByRole("heading", { name: "The Village Year", level: 2 }).waitFor();
    await site.goto(`${origin}/series/the-village-year`);
    await site.getByText("A year in a northern village, told in four books.").waitFor();
    expect(await shown()).toEqual(["The Long Summer", "The Thaw", "The First Frost"]);
    const thaw = site.getByRole("article").filter({ has: site.getByRole("heading", { name: "The Thaw" }) });
    const book = await thaw.getByRole("link").getAttribute("href");
    await site.goto(`${origin}${book}`);
    await site.getByText("Book 2 of 3 in").waitFor();
    await site.getByRole("link", { name: "The First Frost" }).waitFor();

    // A name that would take the first series' address is refused at its field; nothing changes.
    const winter = await e.server.api("/api/series", {
      method: "POST",
      cookie: author.cookie,
      json: { name: "Winter Tales" },
    });
    expect(winter.status).toBe(201);
    await page.reload();
    const other = page.getByRole("form", { name: "Edit Winter Tales" });
    await other.getByLabel("Series name").fill("The Village-Year!");
    await other.getByRole("button", { name: "Save Series" }).click();
    await other
      .getByText(
        "This name would share its web address with your series “The Village Year”: use that series, or a name that differs by more than punctuation or accents",
      )
      .waitFor();
    expect(await other.getByLabel("Series name").getAttribute("aria-invalid")).toBe("true");
    await other.scrollIntoViewIfNeeded();
    await shot(page, "series-address-taken", { viewport: true });
    await page.getByRole("heading", { name: "Winter Tales", level: 2 }).waitFor();

    // Removing a series asks first; its card goes, and it is gone after a reload.
    await page.getByRole("button", { name: "Remove Winter Tales" }).click();
    const question = page.getByRole("dialog", { name: "Remove “Winter Tales”?" });
    await question.getByText("on your site, in no series, and its page goes.").waitFor();
    await shot(page, "series-remove", { viewport: true });
    await question.getByRole("button", { name: "Remove Series" }).click();
    await page.getByText("Series “Winter Tales” removed").waitFor();
    await question.waitFor({ state: "detached" });
    await page.reload();
    await page.getByRole("heading", { name: "The Village Year", level: 2 }).waitFor();
    expect(await page.getByRole("heading", { name: "Winter Tales", level: 2 }).count()).toBe(0);
    await page.context().close();
  });
});
