// What handing out a post's address reads: the candidates it tries, one exact index lookup each,
// however many posts the author has (ADR 079). PostgreSQL may otherwise plan the candidate
// check as a hash of every address the author has ever had, built anew on every create.
import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor } from "../../../testing/users.ts";
import { firstFreeSlug, insertPostIfFree, reserveSlug, reserveSlugStatement } from "./posts.queries.ts";

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

  it("gives a title's first post its bare address in one statement, only when no post has it, now or before", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const db = s.database.db;
    const post = (userId: string, slug: string) =>
      insertPostIfFree(db, userId, { title: "T", slug, content: "<p>x</p>", category: "news" });
    const first = await post(a.id, "first-look");
    expect(first?.slug).toBe("first-look");
    // Taken by a live post: nothing inserted.
    expect(await post(a.id, "first-look")).toBeNull();
    // Another author's address is no concern of this author's.
    expect((await post(b.id, "first-look"))?.userId).toBe(b.id);
    // An earlier address of a post (it redirects) is taken too.
    await db.execute(
      sql`insert into blog_post_slugs (user_id, post_id, slug) values (${a.id}, ${first?.id}, 'old-look')`,
    );
    expect(await post(a.id, "old-look")).toBeNull();
    const count = async (slug: string) => {
      const res = await db.execute(
        sql`select count(*)::int as n from blog_posts where user_id = ${a.id} and slug = ${slug}`,
      );
      return (res as unknown as { rows: { n: number }[] }).rows[0]?.n;
    };
    expect(await count("old-look")).toBe(0);
    expect(await count("first-look")).toBe(1);
    // The title's counter, made by its second post, steps over the first's address.
    expect(await reserveSlug(db, a.id, "first-look")).toBe("first-look-2");
    expect(await reserveSlug(db, a.id, "old-look")).toBe("old-look-2");
  });
});
