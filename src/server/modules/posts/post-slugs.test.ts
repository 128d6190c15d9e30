// What handing out a post's address reads: the candidates it tries, one exact index lookup each,
// however many posts the author has (ADR 079). PostgreSQL may otherwise plan the candidate
// check as a hash of every address the author has ever had, built anew on every create.
import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor } from "../../../testing/users.ts";
import { firstFreeSlug, reserveSlugStatement } from "./posts.queries.ts";

startFileServer();

describe("handing out a post's address", () => {
  it("looks up each candidate in the indexes, never reading all the author's posts", async () => {
    const a = await createAuthor(s);
    const db = s.database.db;
    await db.execute(
      sql`insert into blog_posts (user_id, title, slug, content, category) select ${a.id}, 'Post ' || i, 'post-' || i, '<p>x</p>', 'news' from generate_series(1, 2000) i`,
    );
    await db.execute(
      sql`insert into post_slug_counters (user_id, base, next) select ${a.id}, 'title-' || i, 2 from generate_series(1, 1000) i`,
    );
    const planOf = async (query: SQL) => {
      const res = await db.execute(sql`explain ${query}`);
      return (res as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join("\n");
    };
    for (const base of ["a-new-title", "post-7", "title-5"]) {
      // A create's address, and a rename's (the post renamed may take back its own address).
      for (const plan of [
        await planOf(sql.raw(reserveSlugStatement.withValues({ userId: a.id, base }))),
        await planOf(sql`select ${firstFreeSlug(a.id, base, crypto.randomUUID())} as slug`),
      ]) {
        expect(plan).not.toMatch(/hashed SubPlan/i);
        expect(plan).not.toMatch(/(Seq|Bitmap Heap) Scan on blog_posts /);
        expect(plan).toMatch(/Index (Only )?Scan using blog_posts_user_slug_idx/);
      }
    }
  });
});
