// Book addresses (ADR 051): a book lives at /book/{slug}; its id and the titles it had before
// answer 301 to it; two books never share one; another author's book is nobody's address here.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookSlugs, books, websitePageStats, websites } from "../db/schema/index.ts";
import { unzip } from "../server/lib/zip.ts";
import { bookSlugOf } from "../shared/book-path.ts";
import { apiClient, expectStatus, type Json } from "../testing/api-client.ts";
import { s, startFileServer } from "../testing/file-server.ts";
import { createAuthor, type TestAuthor } from "../testing/users.ts";

startFileServer();
let jane: TestAuthor;
let other: TestAuthor;

beforeAll(async () => {
  jane = await createAuthor(s, { tier: "midi" });
  other = await createAuthor(s, { tier: "midi" });
});

async function addBook(a: TestAuthor, title: string, extra: Json = {}) {
  const res = await apiClient(s, a).books.$post({ json: { title, author: a.name, ...extra } });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json).book as { id: string; slug: string; title: string };
}
async function rename(a: TestAuthor, id: string, title: string) {
  const res = await apiClient(s, a).books[":id"].$patch({ param: { id }, json: { title } });
  expect(res.status).toBe(200);
  return ((await res.json()) as Json).book as { id: string; slug: string };
}
const on = (a: TestAuthor, path: string) => s.onHost(`${a.subdomain}.localhost`, path);
/** The slugs the database holds for a book: its own, and the old ones that redirect to it. */
async function addressesOf(id: string) {
  const [row] = await s.database.db.select({ slug: books.slug }).from(books).where(eq(books.id, id));
  const old = await s.database.db.select({ slug: bookSlugs.slug }).from(bookSlugs).where(eq(bookSlugs.bookId, id));
  return { slug: row?.slug, old: old.map((r) => r.slug).sort() };
}

describe("a book's address", () => {
  it("comes from the title, and every link to the book on the site uses it", async () => {
    const book = await addBook(jane, "Café Crème: The Night Shift!");
    expect(book.slug).toBe("cafe-creme-the-night-shift");
    const page = await on(jane, "/book/cafe-creme-the-night-shift");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Café Crème: The Night Shift!");
    const origin = `http://${jane.subdomain}.localhost:${s.port}`;
    expect(page.body).toContain(`<link rel="canonical" href="${origin}/book/cafe-creme-the-night-shift"/>`);
    expect(page.body).toContain(`"url":"${origin}/book/cafe-creme-the-night-shift"`);
    for (const list of ["/books", "/"]) {
      const body = (await on(jane, list)).body;
      expect(body, list).toContain('href="/book/cafe-creme-the-night-shift"');
      expect(body, list).not.toContain(`/book/${book.id}`);
    }
    // A title with nothing to keep still gets an address.
    expect((await addBook(jane, "¿¡!?")).slug).toBe("book");
  });

  it("answers its id (the addresses before) with 301 to the slug, on the site and in the preview", async () => {
    const book = await addBook(jane, "The Salt Road");
    const byId = await on(jane, `/book/${book.id}`);
    expect(byId.status).toBe(301);
    expect(byId.headers.location).toBe("/book/the-salt-road");
    expect((await on(jane, `/book/${book.id.toUpperCase()}`)).headers.location).toBe("/book/the-salt-road");
    const preview = await s.api(`/author/${jane.subdomain}/book/${book.id}`, { redirect: "manual" });
    expect(preview.status).toBe(301);
    expect(preview.headers.get("location")).toBe(`/author/${jane.subdomain}/book/the-salt-road`);
    // Store links and the release-alert form accept any address of the book.
    expect(await (await s.api(`/author/${jane.subdomain}/book/the-salt-road`)).text()).not.toContain(book.id);
  });

  it("keeps the old address of a renamed book answering 301, and drops the cached pages", async () => {
    const book = await addBook(jane, "Harbour Lights");
    const first = await on(jane, "/book/harbour-lights");
    expect(first.status).toBe(200);
    expect((await on(jane, "/books")).body).toContain('href="/book/harbour-lights"'); // now cached

    // Editing the body, or a title that slugs the same, keeps the address.
    expect((await rename(jane, book.id, "Harbour  Lights!")).slug).toBe("harbour-lights");
    expect(await addressesOf(book.id)).toEqual({ slug: "harbour-lights", old: [] });

    const moved = await rename(jane, book.id, "Harbour Lights at Dusk");
    expect(moved.slug).toBe("harbour-lights-at-dusk");
    expect(await addressesOf(book.id)).toEqual({ slug: "harbour-lights-at-dusk", old: ["harbour-lights"] });
    const old = await on(jane, "/book/harbour-lights");
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe("/book/harbour-lights-at-dusk");
    const now = await on(jane, "/book/harbour-lights-at-dusk");
    expect(now.status).toBe(200);
    expect(now.body).toContain("Harbour Lights at Dusk");
    const list = (await on(jane, "/books")).body;
    expect(list).toContain('href="/book/harbour-lights-at-dusk"');
    expect(list).not.toContain('href="/book/harbour-lights"');
    // Its id goes straight to the current address, never along a chain.
    expect((await on(jane, `/book/${book.id}`)).headers.location).toBe("/book/harbour-lights-at-dusk");

    // Renamed again: both earlier addresses lead to the newest directly.
    await rename(jane, book.id, "Lights Out");
    for (const p of ["/book/harbour-lights", "/book/harbour-lights-at-dusk"])
      expect((await on(jane, p)).headers.location, p).toBe("/book/lights-out");

    // Renamed back: it takes its own old address again, which is no longer an old one.
    expect((await rename(jane, book.id, "Harbour Lights")).slug).toBe("harbour-lights");
    expect(await addressesOf(book.id)).toEqual({
      slug: "harbour-lights",
      old: ["harbour-lights-at-dusk", "lights-out"],
    });
    expect((await on(jane, "/book/harbour-lights")).status).toBe(200);
    expect((await on(jane, "/book/lights-out")).headers.location).toBe("/book/harbour-lights");
  });

  it("is unique per author: a clash takes -2, -3, and old addresses stay reserved", async () => {
    const a = await addBook(jane, "Twice Told");
    const b = await addBook(jane, "Twice Told");
    expect([a.slug, b.slug]).toEqual(["twice-told", "twice-told-2"]);
    // The first moves away; its old address is still its own, so a new book does not take it.
    await rename(jane, a.id, "Once Told");
    const c = await addBook(jane, "Twice Told");
    expect(c.slug).toBe("twice-told-3");
    expect((await on(jane, "/book/twice-told")).headers.location).toBe("/book/once-told");
    expect((await on(jane, "/book/twice-told-2")).body).toContain("Twice Told");
    // Another author may use the same address.
    expect((await addBook(other, "Twice Told")).slug).toBe("twice-told");
  });

  it("is nobody's on another author's host: 404, whether by slug, old slug or id", async () => {
    const theirs = await addBook(other, "Only Theirs");
    await rename(other, theirs.id, "Only Theirs Renamed");
    expect((await on(other, "/book/only-theirs")).status).toBe(301);
    for (const p of ["/book/only-theirs-renamed", "/book/only-theirs", `/book/${theirs.id}`]) {
      const r = await on(jane, p);
      expect(r.status, p).toBe(404);
      expect(r.body).toContain("Book Not Found");
      expect(r.headers.location).toBeUndefined();
    }
  });

  it("leads nowhere for a hidden or deleted book, and a deleted book's addresses are free again", async () => {
    const hidden = await addBook(jane, "Drawer Novel");
    await rename(jane, hidden.id, "Drawer Novel Two");
    await apiClient(s, jane).books[":id"].visibility.$patch({ param: { id: hidden.id }, json: { visible: false } });
    for (const p of ["/book/drawer-novel", "/book/drawer-novel-two", `/book/${hidden.id}`])
      expect((await on(jane, p)).status, p).toBe(404);

    const gone = await addBook(jane, "Torn Up");
    await rename(jane, gone.id, "Torn Up Again");
    expect((await apiClient(s, jane).books[":id"].$delete({ param: { id: gone.id } })).status).toBe(204);
    expect((await on(jane, "/book/torn-up")).status).toBe(404);
    expect(await s.database.db.select().from(bookSlugs).where(eq(bookSlugs.bookId, gone.id))).toEqual([]);
    expect((await addBook(jane, "Torn Up")).slug).toBe("torn-up");
  });

  it("is what the sitemap lists", async () => {
    const sitemap = (await on(jane, "/sitemap.xml")).body;
    const visible = await s.database.db
      .select({ id: books.id, slug: books.slug })
      .from(books)
      .where(and(eq(books.userId, jane.id), eq(books.visibilityEnabled, true)));
    const listed = [...sitemap.matchAll(/<loc>[^<]*\/book\/([^<]+)<\/loc>/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(visible.map((b) => b.slug).sort());
    for (const b of visible) expect(sitemap).not.toContain(b.id);
  });

  it("names the book in Stats by its current title, whichever of its addresses was read", async () => {
    const a = await createAuthor(s);
    const book = await addBook(a, "First Light");
    await rename(a, book.id, "Last Light");
    const [site] = await s.database.db.select({ id: websites.id }).from(websites).where(eq(websites.userId, a.id));
    const today = new Date().toISOString().slice(0, 10);
    // Counts from before the change (by id), from before the rename, and since.
    const paths = { [`/book/${book.id}`]: 5, "/book/first-light": 3, "/book/last-light": 1, "/book/never-was": 2 };
    await s.database.db
      .insert(websitePageStats)
      .values(Object.entries(paths).map(([path, views]) => ({ websiteId: site?.id ?? "", date: today, path, views })));
    const top = (await expectStatus(apiClient(s, a).stats.$get({ query: { days: "7" } }), 200)).topBooks;
    expect(top).toEqual([
      { label: "Last Light", path: `/book/${book.id}`, views: 5 },
      { label: "Last Light", path: "/book/first-light", views: 3 },
      { label: "A book no longer shown", path: "/book/never-was", views: 2 },
      { label: "Last Light", path: "/book/last-light", views: 1 },
    ]);
  });

  it("goes into the account export with the old addresses", async () => {
    const res = await apiClient(s, jane).account.export.$get();
    const files = unzip(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(String(files.get("bookplate-export/data.json"))) as Json;
    const old = await s.database.db.select().from(bookSlugs).where(eq(bookSlugs.userId, jane.id));
    expect(old.length).toBeGreaterThan(0);
    expect((data.bookOldAddresses as Json[]).map((r) => r.slug).sort()).toEqual(old.map((r) => r.slug).sort());
    expect((data.books as Json[]).map((b) => b.slug).sort()).toEqual(
      (await s.database.db.select({ slug: books.slug }).from(books).where(eq(books.userId, jane.id)))
        .map((b) => b.slug)
        .sort(),
    );
  });
});

describe("the migration that gave existing books their addresses", () => {
  /** The hand-written backfill, as the migration holds it (whatever its number). */
  function backfill(): string {
    const dir = join(import.meta.dirname, "../db/migrations");
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".sql"))) {
      const statement = readFileSync(join(dir, f), "utf8")
        .split("--> statement-breakpoint")
        .find((st) => st.includes('UPDATE "books" AS t SET "slug"'));
      if (statement) return statement;
    }
    throw new Error("no migration fills books.slug");
  }

  it("gives each book the app's slug, -N for a second of one title, and never one address twice", async () => {
    const a = await createAuthor(s, { tier: "mega" });
    const titles = ["The Salt Road", "The Salt Road", "Crème Brûlée", "The Salt Road 2", "¿?", "The Salt Road"];
    const db = s.database.db;
    const rows = await db
      .insert(books)
      .values(titles.map((title, i) => ({ userId: a.id, title, slug: `pending-${i}`, author: "A", sortOrder: i })))
      .returning({ id: books.id });
    const got = await db
      .transaction(async (tx) => {
        // As the migration found them: every book without an address yet.
        await tx.execute(sql`alter table books alter column slug drop not null`);
        await tx.execute(sql`update books set slug = null`);
        await tx.execute(sql.raw(backfill()));
        const after = await tx.select({ id: books.id, slug: books.slug }).from(books).where(eq(books.userId, a.id));
        // Undo: the other tests' books keep the addresses the app gave them.
        throw Object.assign(new Error("rollback"), { after });
      })
      .catch((e: { after?: { id: string; slug: string }[] }) => {
        if (!e.after) throw e;
        return e.after;
      });
    const slugOf = (i: number) => got.find((r) => r.id === rows[i]?.id)?.slug;
    const bySlug = titles.map((_, i) => slugOf(i));
    // The first of a title has the app's own slug; the third "The Salt Road" cannot be -2's
    // neighbour "the-salt-road-2" (another title makes it), so it takes a piece of its id.
    expect(bySlug[0]).toBe(bookSlugOf("The Salt Road"));
    expect(bySlug[2]).toBe(bookSlugOf("Crème Brûlée"));
    expect(bySlug[3]).toBe("the-salt-road-2");
    expect(bySlug[4]).toBe("book");
    expect(bySlug[1]).toBe(`the-salt-road-${rows[1]?.id.slice(0, 8)}`);
    expect(bySlug[5]).toBe("the-salt-road-3");
    expect(new Set(bySlug).size).toBe(titles.length);
  });
});
