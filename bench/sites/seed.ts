// The sites bench:sites serves: BENCH_SITES authors of 10 books each, seeded straight into the
// database (PGlite in a data directory, or PostgreSQL), dated a day back.
import { openDatabase } from "../../src/db/client.ts";
import { books, profiles, subscriptions, user, websites } from "../../src/db/schema/index.ts";
import { BOOKS } from "./compare.ts";

export const SITES = Number(process.env.BENCH_SITES ?? 1000);

/** Seeds `sites` authors; the slug of each one's first book, in order. */
export async function seed(dataDir: string, databaseUrl = "", sites = SITES): Promise<string[]> {
  const database = await openDatabase({ dataDir, databaseUrl });
  await database.migrate();
  const db = database.db;
  const firstBook: string[] = [];
  for (let start = 0; start < sites; start += 100) {
    const batch = Array.from({ length: Math.min(100, sites - start) }, (_, i) => {
      const n = start + i;
      return { id: `bench-${n}`, sub: `site${String(n).padStart(4, "0")}`, name: `Author ${n}` };
    });
    await db.insert(user).values(batch.map((b) => ({ id: b.id, name: b.name, email: `${b.sub}@bench.invalid` })));
    await db.insert(profiles).values(
      batch.map((b) => ({
        id: b.id,
        name: b.name,
        email: `${b.sub}@bench.invalid`,
        bio: `<p>${b.name} writes novels. `.repeat(20),
      })),
    );
    // Dated a day back: the page cache's sweep (ADR 007) drops the pages of sites whose website or
    // subscription row changed within the last minute, so rows written just before the server
    // starts would empty the cache every 15 s for that minute — not what a real site sees.
    const old = new Date(Date.now() - 86_400_000);
    await db
      .insert(websites)
      .values(
        batch.map((b) => ({ userId: b.id, subdomain: b.sub, websiteName: b.name, createdAt: old, updatedAt: old })),
      );
    await db
      .insert(subscriptions)
      .values(batch.map((b) => ({ userId: b.id, tier: "midi", status: "active", createdAt: old, updatedAt: old })));
    const rows = await db
      .insert(books)
      .values(
        batch.flatMap((b) =>
          Array.from({ length: BOOKS }, (_, k) => ({
            userId: b.id,
            title: `Book ${k + 1} by ${b.name}`,
            slug: `book-${k + 1}`,
            author: b.name,
            shortBlurb: `<p>A story about ${k + 1} things. `.repeat(15),
            releaseDate: "2024-01-01",
            primaryPriceMinor: 899,
            sortOrder: k,
            seriesName: "Series",
            orderInSeries: k + 1,
          })),
        ),
      )
      .returning({ slug: books.slug, userId: books.userId, sortOrder: books.sortOrder });
    for (const r of rows) if (r.sortOrder === 0) firstBook.push(r.slug);
  }
  await database.close();
  return firstBook;
}
