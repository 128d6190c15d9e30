// Book cards in author HTML (ADR 071): the cleaning rule that keeps `<div data-book-card="{id}">`
// and nothing else of it, the card on a post's page, and the card in a newsletter's mail; a book
// of another author renders nothing, and a deleted book's card disappears.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../db/schema/index.ts";
import { cleanAuthorHtml } from "../server/lib/html.ts";
import { mailBookCard } from "../server/modules/newsletter/newsletter-book-cards.ts";
import { apiClient, expectStatus } from "../testing/api-client.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../testing/users.ts";
import { cleanHtml } from "./sanitize.ts";

const ID = "0b7c6a2e-3f4d-4c5b-9a8e-1f2d3c4b5a69";
const card = (id: string) => `<div data-book-card="${id}"></div>`;

describe("the cleaning rule for a book card", () => {
  it("keeps a div naming a book id, empty, on write and on render", () => {
    for (const clean of [cleanAuthorHtml, cleanHtml]) {
      expect(clean(`<p>See</p><div data-book-card="${ID.toUpperCase()}">words</div>`)).toBe(`<p>See</p>${card(ID)}`);
      expect(clean(`<div data-book-card=' ${ID} ' data-x="1" onclick="alert(1)" style="color:red"></div>`)).toBe(
        card(ID),
      );
    }
  });

  it("drops the attribute when it is not a book id, and no other div attribute passes", () => {
    for (const clean of [cleanAuthorHtml, cleanHtml]) {
      expect(clean('<div data-book-card="javascript:alert(1)">x</div>')).toBe("<div>x</div>");
      expect(clean('<div data-book-card="../../etc">x</div>')).toBe("<div>x</div>");
      expect(clean('<div class="bookcard" id="y" data-other="z">x</div>')).toBe("<div>x</div>");
    }
  });

  it("counts a card alone as content (a newsletter of just a book is not blank)", () => {
    expect(cleanAuthorHtml(card(ID))).toBe(card(ID));
    expect(cleanAuthorHtml('<div data-book-card="nope"></div>')).toBeNull();
  });
});

describe("the mail's book card", () => {
  it("is a table with inline styles: cover by absolute address, title, a button to the book's page", () => {
    const html = mailBookCard(
      {
        id: ID,
        title: 'Tides & "Silence"',
        subtitle: null,
        slug: "tides-of-silence",
        coverImageUrl: "/uploads/covers/abc-800.webp",
        coverImageVariants: [
          { width: 200, height: 300, url: "/uploads/covers/abc-200.webp" },
          { width: 400, height: 600, url: "/uploads/covers/abc-400.webp" },
        ],
      },
      "https://jane.bookplate.example/",
    );
    expect(html).toMatch(/^<table role="presentation" width="100%"/);
    expect(html).toContain('src="https://jane.bookplate.example/uploads/covers/abc-400.webp" width="120"');
    expect(html).toContain('alt="Cover of Tides &amp; &quot;Silence&quot;"');
    expect(html).toContain('href="https://jane.bookplate.example/book/tides-of-silence"');
    expect(html).toContain(">Buy the book</a>");
    // Fits a phone: nothing wider than the column, no class or stylesheet to lose.
    expect(html).toContain("max-width:100%");
    expect(html).not.toMatch(/class=|<style|width="[2-9]\d\d"/);
  });
});

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function book(a: TestAuthor, title: string): Promise<{ id: string; slug: string }> {
  const { book } = await expectStatus(apiClient(s, a).books.$post({ json: { title, author: "Jane Author" } }), 201);
  await s.database.db
    .update(books)
    .set({ coverImageUrl: `/uploads/covers/${book.id}-400.webp` })
    .where(eq(books.id, book.id));
  return book;
}

const page = (a: TestAuthor, path: string) => s.onHost(`${a.subdomain}.localhost`, path);

describe("book cards on the site and in the mail", () => {
  it("a post shows its author's book as a card; another author's book and a deleted one show nothing", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const mine = await book(a, "The Lantern Road");
    const gone = await book(a, "Soon Deleted");
    const theirs = await book(b, "Not Yours To Show");
    const { post } = await expectStatus(
      apiClient(s, a).posts.$post({
        json: {
          title: "Out now",
          category: "books",
          content: `<p>Three cards.</p>${card(mine.id)}${card(theirs.id)}${card(gone.id)}`,
        },
      }),
      201,
    );
    const path = `/blog/${post.slug}`;

    const html = (await page(a, path)).body;
    expect(html).toContain('<aside class="bookcard" aria-label="Book: The Lantern Road">');
    expect(html).toContain(`<img src="/uploads/covers/${mine.id}-400.webp"`);
    expect(html).toContain(`href="/book/${mine.slug}">Buy the book<span class="sr">: The Lantern Road</span></a>`);
    expect(html).toContain("Soon Deleted");
    expect(html).not.toContain("Not Yours To Show");
    expect(html).not.toContain(theirs.id);
    expect(html).not.toContain("data-book-card");

    expect((await apiClient(s, a).books[":id"].$delete({ param: { id: gone.id } })).status).toBe(204);
    const after = (await page(a, path)).body;
    expect(after).not.toContain("Soon Deleted");
    expect(after).toContain("The Lantern Road");
  });

  it("a newsletter's copy carries the card as a table, in both parts; another author's book nowhere", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const mine = await book(a, "Harbour Lights");
    const theirs = await book(b, "Someone Else's Book");
    const { newsletter } = await expectStatus(
      apiClient(s, a).newsletters.$post({
        json: { subject: "A book for you", content: `<p>Here it is.</p>${card(mine.id)}${card(theirs.id)}` },
      }),
      201,
    );
    expect(newsletter.content).toBe(`<p>Here it is.</p>${card(mine.id)}${card(theirs.id)}`);
    expect((await apiClient(s, a).newsletters[":id"].test.$post({ param: { id: newsletter.id } })).status).toBe(200);
    const mail = await s.smtp.waitFor(a.email, "[Test] A book for you");
    const site = `http://${a.subdomain}.localhost`;
    expect(mail.html).toContain(`src="${site}`);
    expect(mail.html).toContain(`/uploads/covers/${mine.id}-400.webp" width="120" alt="Cover of Harbour Lights"`);
    expect(mail.html).toMatch(new RegExp(`href="${site}[^"]*/book/${mine.slug}"[^>]*>Buy the book</a>`));
    expect(mail.html).not.toContain("Someone Else");
    expect(mail.html).not.toContain("data-book-card");
    expect(mail.text).toContain("Harbour Lights");
    expect(mail.text).toMatch(new RegExp(`Buy the book: ${site}\\S*/book/${mine.slug}`));
    expect(mail.text).not.toContain("Someone Else");
  });
});
