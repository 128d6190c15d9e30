// A launch in the browser: a reader on a pre-order's page asks to be told when it is out and
// confirms through the mailed link; the author sees the reader counted on the book's edit page
// and sends themselves the release mail as a test.
import { expect, it } from "vitest";
import { firstLink } from "../src/testing/smtp-catcher.ts";
import { createAuthor } from "../src/testing/users.ts";
import { browserDescribe, newPage, setupE2E, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("launches", () => {
  it("takes a reader's release alert and shows it to the author", async () => {
    const author = await createAuthor(e.server, { tier: "midi" });
    const res = await e.server.api("/api/books", {
      method: "POST",
      cookie: author.cookie,
      json: { title: "The Comet Year", author: "Jane", releaseDate: "2031-03-14" },
    });
    const bookId = (await res.json()).book.id as string;
    const page = await newPage(e);
    const origin = `http://${author.subdomain}.localhost:${e.server.port}`;

    await page.goto(`${origin}/book/${bookId}`);
    await page.getByText(/Out on 14 March 2031 — in \d+ days/).waitFor();
    await page.getByLabel("Email address").fill("reader@example.com");
    await page.getByRole("button", { name: "Tell me" }).click();
    await page.getByText("Check your inbox").waitFor();
    const mail = await e.server.smtp.waitFor("reader@example.com", "Please confirm");
    await page.goto(firstLink(mail.text));
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("heading", { name: "You're on the list" }).waitFor();

    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.goto(`/edit-book/${bookId}`);
    const panel = page.getByRole("region", { name: "Release alerts" });
    await panel.getByText("To be told on 14 March 2031").waitFor();
    expect(await panel.locator("dd").allInnerTexts()).toEqual(["1", "0", "0"]);
    await panel.getByRole("button", { name: "Send Me a Test" }).click();
    await page.getByText(`Test sent to ${author.email}`).waitFor();
    await e.server.smtp.waitFor(author.email, "[Test] The Comet Year is out now");
    await page.context().close();
  });
});
