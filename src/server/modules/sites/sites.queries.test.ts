// The reads behind an uncached public page keep one plan: PostgreSQL plans a named statement
// afresh for each of its first five runs, then keeps a generic plan only when that plan costs no
// more than the ones it made for the values given. A statement it keeps re-planning pays the
// planner on every page (about as much as running it, for the book page's read).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../../db/client.ts";
import { books, profiles, subscriptions, user, websites } from "../../../db/schema/index.ts";
import * as q from "./sites.queries.ts";

let dir: string;
let database: Database;
let bookId = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "bookplate-plans-"));
  database = await openDatabase({ dataDir: dir, databaseUrl: "" });
  await database.migrate();
  const db = database.db;
  await db.insert(user).values({ id: "planned", name: "Planned", email: "planned@example.com" });
  await db.insert(profiles).values({ id: "planned", name: "Planned", email: "planned@example.com" });
  await db.insert(websites).values({ userId: "planned", subdomain: "planned", websiteName: "Planned" });
  await db.insert(subscriptions).values({ userId: "planned", tier: "midi", status: "active" });
  const rows = await db
    .insert(books)
    .values(
      Array.from({ length: 10 }, (_, k) => ({
        userId: "planned",
        title: `Book ${k + 1}`,
        slug: `book-${k + 1}`,
        author: "Planned",
        sortOrder: k,
        seriesName: "Series",
        orderInSeries: k + 1,
      })),
    )
    .returning({ id: books.id });
  bookId = rows[0]?.id ?? "";
  // Other authors' books, as a real database holds: the planner's estimates follow the table's size.
  const others = Array.from({ length: 1000 }, (_, n) => `other-${n}`);
  await db.insert(user).values(others.map((id) => ({ id, name: id, email: `${id}@example.com` })));
  for (let start = 0; start < others.length; start += 100) {
    await db.insert(books).values(
      others.slice(start, start + 100).flatMap((id) =>
        Array.from({ length: 10 }, (_, k) => ({
          userId: id,
          title: `Book ${k + 1}`,
          slug: `book-${k + 1}`,
          author: id,
          sortOrder: k,
          seriesName: "Series",
        })),
      ),
    );
  }
}, 120_000);

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** How PostgreSQL planned this session's named statement whose text contains `marker`. */
async function plansOf(marker: string) {
  const result = await database.db.execute(
    sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like ${`%${marker}%`}`,
  );
  const rows = (result as unknown as { rows: { generic: number; custom: number }[] }).rows;
  expect(rows).toHaveLength(1);
  return rows[0] as { generic: number; custom: number };
}

describe("the reads behind an uncached page", () => {
  it("keep a generic plan for a book's page, asked for by its address or by its id", async () => {
    const db = database.db;
    for (let i = 0; i < 12; i++) {
      const byAddress = await q.selectVisibleBook(db, "planned", `book-${(i % 10) + 1}`, null, 50);
      expect(byAddress?.book.slug).toBe(`book-${(i % 10) + 1}`);
    }
    const byId = await q.selectVisibleBook(db, "planned", bookId, bookId, 50);
    expect(byId?.book.slug).toBe("book-1");
    expect(await q.selectVisibleBook(db, "planned", "no-such-book", null, 50)).toBeNull();
    // Beyond the plan's limit, the book is not shown.
    expect(await q.selectVisibleBook(db, "planned", "book-3", null, 2)).toBeNull();
    expect(await plansOf("book_slugs bsl")).toEqual({ generic: 10, custom: 5 });
  });

  it("keep a generic plan for the site context and a site's list of books", async () => {
    const db = database.db;
    for (let i = 0; i < 8; i++) {
      expect((await q.selectContextBySubdomain(db, "planned"))?.website.userId).toBe("planned");
      expect(await q.selectVisibleBooks(db, "planned", 50)).toHaveLength(10);
    }
    expect((await plansOf('lower("websites"."subdomain")')).custom).toBe(5);
    expect((await plansOf('select "id", "title", "slug", "subtitle"')).custom).toBe(5);
  });
});
