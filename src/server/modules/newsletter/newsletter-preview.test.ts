// The newsletter editor's preview: the server makes the mail readers will get from the words as
// they stand (cleaned, in the mail layout, with book cards and the footer), for the author only.
import { describe, expect, it } from "vitest";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { createOk, s, startBooksServer } from "../../../testing/books.ts";
import { createAuthor } from "../../../testing/users.ts";

startBooksServer();

const preview = (a: { cookie: string }, subject: string, content: string) =>
  readJson(apiClient(s, a).newsletters.preview.$post({ json: { subject, content } }));

describe("the newsletter preview", () => {
  it("needs a session", async () => {
    expect((await preview({ cookie: "" }, "Hi", "<p>Hi</p>")).status).toBe(401);
  });

  it("is the mail readers get: cleaned words, the author's book as a card, the footer and the postal address", async () => {
    const a = await createAuthor(s);
    const book = await createOk(a, { title: "The Lighthouse Keeper" });
    const put = await readJson(
      apiClient(s, a).newsletter.settings.$put({
        json: { archiveEnabled: false, postalAddress: "PO Box 12\nHarbour Town" },
      }),
    );
    expect(put.status).toBe(200);
    const res = await preview(
      a,
      "News <from> the desk",
      `<p>Chapter three</p><script>alert(1)</script><div data-book-card="${book.id}"></div>`,
    );
    expect(res.status).toBe(200);
    const html = res.body.html as string;
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain("Chapter three");
    expect(html).not.toContain("<script");
    expect(html).toContain("News &lt;from&gt; the desk");
    expect(html).toContain("The Lighthouse Keeper");
    expect(html).toContain("You receive this because you subscribed");
    expect(html).toContain("Harbour Town");
  });

  it("shows nothing of another author's book named in a card", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const theirs = await createOk(b, { title: "Only Theirs To Show" });
    const res = await preview(a, "Hi", `<p>Look</p><div data-book-card="${theirs.id}"></div>`);
    expect(res.status).toBe(200);
    expect(res.body.html).not.toContain("Only Theirs To Show");
  });

  it("takes an empty editor, and refuses what is over the limits with the field's message", async () => {
    const a = await createAuthor(s);
    expect((await preview(a, "", "")).status).toBe(200);
    const long = await preview(a, "x".repeat(201), "<p>Hi</p>");
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain("Subject must be at most 200 characters");
  });
});
