// A select prepared with its own row mapper answers exactly what Drizzle's own mapping answers:
// every column type a book has (dates, timestamps, numbers, booleans, nulls), a typed `sql`
// field, and on PostgreSQL too when DATABASE_URL is set.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgres } from "../testing/resources.ts";
import { type Database, openDatabase } from "./client.ts";
import { prepareFlat } from "./prepared.ts";
import { books, subscriptions, user } from "./schema/index.ts";

let dir: string;
let database: Database;
let dropPostgres: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "bookplate-prepared-"));
  let databaseUrl = "";
  if (process.env.DATABASE_URL) {
    const pg = await freshPostgres(process.env.DATABASE_URL);
    databaseUrl = pg.url;
    dropPostgres = pg.drop;
  }
  database = await openDatabase({ dataDir: dir, databaseUrl });
  await database.migrate();
  const db = database.db;
  await db.insert(user).values({ id: "flat", name: "Flat", email: "flat@example.com" });
  await db.insert(subscriptions).values({ userId: "flat", tier: "maxi", status: "active" });
  await db.insert(books).values([
    {
      userId: "flat",
      title: "Full",
      slug: "full",
      author: "Flat",
      subtitle: "Every field",
      releaseDate: "2024-02-29",
      primaryPriceMinor: 899,
      sortOrder: 0,
      seriesName: "Series",
      orderInSeries: 1,
      isFeatured: true,
    },
    { userId: "flat", title: "Bare", slug: "bare", author: "Flat", sortOrder: 1 },
  ]);
});

afterAll(async () => {
  await database?.close();
  await dropPostgres?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("prepareFlat", () => {
  it("answers the rows Drizzle's own mapping answers, value for value and type for type", async () => {
    const db = database.db;
    const fields = {
      ...getTableColumns(books),
      tier: sql<
        string | null
      >`(select ${subscriptions.tier} from ${subscriptions} where ${subscriptions.userId} = ${sql.placeholder("userId")})`,
      titleLength: sql`length(${books.title})`.mapWith(Number),
    };
    const query = () =>
      db
        .select(fields)
        .from(books)
        .where(eq(books.userId, sql.placeholder("userId")))
        .orderBy(asc(books.sortOrder));
    const drizzle = await query().prepare("flat_rows_drizzle").execute({ userId: "flat" });
    const flat = prepareFlat<(typeof drizzle)[number]>(db, "flat_rows_own", fields, query());
    const rows = await flat.execute({ userId: "flat" });
    expect(rows).toEqual(drizzle);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.createdAt).toBeInstanceOf(Date);
    expect(rows[0]).toMatchObject({ tier: "maxi", titleLength: 4, isFeatured: true, primaryPriceMinor: 899 });
    expect(rows[1]).toMatchObject({ subtitle: null, releaseDate: null, titleLength: 4 });
    // Prepared once: a second run answers the same.
    expect(await flat.execute({ userId: "flat" })).toEqual(drizzle);
    expect(await flat.execute({ userId: "nobody" })).toEqual([]);
  });
});
