// Blog post rows. Every query takes the owner's id, so a post id alone never reaches a row.
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { type Db, runsOneStatementAtATime, type Tx } from "../../../db/client.ts";
import { preparedSql } from "../../../db/prepared.ts";
import { blogPostSlugs, blogPosts, user } from "../../../db/schema/index.ts";
import type { PostCategory } from "../../../shared/enums.ts";
import { selectOwned, updateOwned } from "../../lib/owned-rows.ts";
import { siteChangedHere, siteChangeMarkOf, siteChangeNotice, siteMarkTimes } from "../sites/site-changes.service.ts";

type Conn = Db | Tx;
export type PostRow = typeof blogPosts.$inferSelect;
export type PostValues = { title?: string; slug?: string; content?: string; category?: PostCategory };

/** Newest first, id breaking ties so the order is stable. */
export function selectPosts(db: Conn, userId: string): Promise<PostRow[]> {
  return db
    .select()
    .from(blogPosts)
    .where(eq(blogPosts.userId, userId))
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));
}

/** The HTML of every post of the author's (what their post images are looked for in). */
export async function selectPostContents(db: Conn, userId: string): Promise<string[]> {
  const rows = await db.select({ content: blogPosts.content }).from(blogPosts).where(eq(blogPosts.userId, userId));
  return rows.map((r) => r.content);
}

export function selectPost(db: Conn, userId: string, id: string): Promise<PostRow | null> {
  return selectOwned(db, blogPosts, userId, id);
}

/**
 * Serialises the author's saves that pick a post address: the second waits for the first to
 * commit, then sees its address as taken. NO KEY UPDATE still lets foreign keys to the user row
 * be checked meanwhile.
 */
export async function lockAuthorPosts(tx: Tx, userId: string): Promise<void> {
  await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for("no key update");
}

/**
 * Hands out the address a new post with the address `base` takes: the first of `base`, `base-2`,
 * `base-3`… that no post of the author's has, now or before, from the author's counter for `base`
 * (post_slug_counters, ADR 074) on. The counter row is read and moved past the answer in one
 * statement, so two creates at once never get the same number. An address taken meanwhile by a
 * post of another base ("Signing 7" against the seventh "Signing") is refused by the unique
 * index on insert, and the create asks again.
 *
 * The statement commits without waiting for its write to reach the disk
 * (`synchronous_commit` off for it alone): the counter's row is free again at once instead of
 * after a disk flush, so same-title creates do not queue on it. A crash can only lose the latest
 * moves of a counter, which leaves it lower: never wrong, only a few more candidates to try.
 * Never call it inside a transaction: the setting would hold for that whole transaction's commit.
 */
export async function reserveSlug(db: Db, userId: string, base: string): Promise<string> {
  const [row] = await reserveSlugStatement(db, { userId, base });
  const n = Number(row?.n);
  if (!(n >= 1)) throw new Error("no address handed out");
  return n === 1 ? base : `${base}-${n}`;
}

/**
 * Whether `slug` is an address of the author's, now or before: one exact lookup in each unique
 * (user, slug) index. Scalar subqueries, not `exists`: PostgreSQL may plan an `exists` run once
 * per candidate as one hash of every address the author has ever had (a "hashed SubPlan"), built
 * on every run, so that each create read all the author's posts (ADR 079).
 */
const slugTaken = (userId: unknown, slug: SQL) =>
  sql`((select true from blog_posts where user_id = ${userId} and slug = ${slug}) or (select true from blog_post_slugs where user_id = ${userId} and slug = ${slug} limit 1))`;

const slugOfNumber = (base: unknown, n: SQL) =>
  sql`(case when ${n} = 1 then ${base}::text else ${base}::text || '-' || ${n} end)`;

/**
 * The counter's upsert, `from` the rows it inserts from (one row): it moves the author's counter
 * for `base` past the first free number and returns that number as `n`.
 */
function counterUpsert(userId: unknown, base: unknown, from: SQL) {
  // The first free number from `start` on: one exact lookup per table and candidate.
  const freeFrom = (start: SQL) =>
    sql`(with recursive probe(n) as (select ${start} union all select n + 1 from probe where ${slugTaken(userId, slugOfNumber(base, sql`n`))}) select max(n) from probe)`;
  return sql`insert into post_slug_counters as c (user_id, base, next)
select ${userId}::text, ${base}::text, case when exists (select 1 from post_slug_counters where user_id = ${userId} and base = ${base}) then 0 else ${freeFrom(sql`1`)} + 1 end from ${from}
on conflict (user_id, base) do update set next = ${freeFrom(sql`c.next`)} + 1
returning next - 1 as n`;
}

export const reserveSlugStatement = preparedSql<{ n: number | string }>(
  "reserve_post_slug",
  sql`with quick as (select set_config('synchronous_commit', 'off', true) as v)
${counterUpsert(sql.placeholder("userId"), sql.placeholder("base"), sql`quick`)}`,
);

/** A post and its site's mark (siteChangeMark) and notice, as one statement (see insertPost). */
const insertPostStatement = (() => {
  const p = sql.placeholder;
  return preparedSql<Record<string, unknown>>(
    "insert_post",
    sql`with post as (insert into blog_posts (user_id, title, slug, content, category) values (${p("userId")}, ${p("title")}, ${p("slug")}, ${p("content")}, ${p("category")}) returning *),
marked as (${siteChangeMarkOf(p("userId"), p("now"), p("before"))})
select post.*, ${siteChangeNotice(p("userId"))} from post`,
  );
})();

/**
 * insertPostStatement, but only when `slug` is free: no post of the author's has it (the unique
 * index, `on conflict do nothing`, waiting for a create of it in flight) and it is no earlier
 * address of theirs. Otherwise nothing is inserted, the site is not marked, and no row comes back.
 */
const insertPostIfFreeStatement = (() => {
  const p = sql.placeholder;
  const userId = sql`${p("userId")}::text`;
  const slug = sql`${p("slug")}::text`;
  return preparedSql<Record<string, unknown>>(
    "insert_post_if_free",
    sql`with post as (insert into blog_posts (user_id, title, slug, content, category) select ${userId}, ${p("title")}::text, ${slug}, ${p("content")}::text, ${p("category")}::text where (select true from blog_post_slugs where user_id = ${userId} and slug = ${slug} limit 1) is null on conflict (user_id, slug) do nothing returning *),
marked as (${siteChangeMarkOf(p("userId"), p("now"), p("before"), sql`exists (select 1 from post)`)})
select post.*, ${siteChangeNotice(p("userId"))} from post`,
  );
})();

/**
 * reserveSlug and insertPost as one statement, for the embedded database: it runs one statement
 * at a time, so the counter's row held until the post commits keeps no other create waiting,
 * and a create of a used title is one round trip to the database's thread fewer. (On PostgreSQL
 * the two stay apart: there the row would be held through the post's disk flush, ADR 074.)
 */
const insertPostAtNextSlugStatement = (() => {
  const p = sql.placeholder;
  const base = p("base");
  return preparedSql<Record<string, unknown>>(
    "insert_post_at_next_slug",
    sql`with counter as (${counterUpsert(p("userId"), base, sql`(select 1) as one`)}),
post as (insert into blog_posts (user_id, title, slug, content, category) select ${p("userId")}::text, ${p("title")}::text, ${slugOfNumber(base, sql`counter.n`)}, ${p("content")}::text, ${p("category")}::text from counter returning *),
marked as (${siteChangeMarkOf(p("userId"), p("now"), p("before"), sql`exists (select 1 from post)`)})
select post.*, ${siteChangeNotice(p("userId"))} from post`,
  );
})();

type NewPost = { title: string; slug: string; content: string; category: PostCategory };

function postOf(row: Record<string, unknown>): PostRow {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    title: String(row.title),
    slug: String(row.slug),
    content: String(row.content),
    category: String(row.category),
    createdAt: new Date(row.created_at as string | Date),
    updatedAt: new Date(row.updated_at as string | Date),
  };
}

/**
 * A new post at `slug` (from reserveSlug), and its site marked changed, in one statement: it
 * commits on its own, holding no row another create needs while its commit reaches the disk.
 * A unique violation (`isSlugTaken`) means the address went to another post meanwhile.
 */
export async function insertPost(db: Db, userId: string, values: NewPost): Promise<PostRow> {
  const [row] = await insertPostStatement(db, { userId, ...values, ...siteMarkTimes() });
  if (!row) throw new Error("insert returned no row");
  siteChangedHere(userId);
  return postOf(row);
}

/**
 * A new post at `slug` when no post of the author's has it, now or before, with its site marked
 * changed, in one statement that commits on its own (as insertPost); null, and nothing changed,
 * when the address is taken. A title's first post needs no counter (ADR 084): the counter, made
 * by the title's next create, starts from 1 and steps over this post's address.
 */
export async function insertPostIfFree(db: Db, userId: string, values: NewPost): Promise<PostRow | null> {
  const [row] = await insertPostIfFreeStatement(db, { userId, ...values, ...siteMarkTimes() });
  if (!row) return null;
  siteChangedHere(userId);
  return postOf(row);
}

/**
 * A new post at the first free address of `base` (reserveSlug's), with its site marked changed:
 * reserveSlug then insertPost, or on the embedded database the two as one statement. A unique
 * violation (`isSlugTaken`) means the address went to another post meanwhile.
 */
export async function insertPostAtNextSlug(
  db: Db,
  userId: string,
  { base, ...values }: Omit<NewPost, "slug"> & { base: string },
): Promise<PostRow> {
  if (!runsOneStatementAtATime(db))
    return insertPost(db, userId, { ...values, slug: await reserveSlug(db, userId, base) });
  const [row] = await insertPostAtNextSlugStatement(db, { userId, base, ...values, ...siteMarkTimes() });
  if (!row) throw new Error("no address handed out");
  siteChangedHere(userId);
  return postOf(row);
}

/** Whether `err` is the unique index refusing an address the author already has. */
export function isSlugTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.cause?.code;
  const constraint = e?.constraint ?? e?.cause?.constraint;
  return code === "23505" && (constraint === undefined || constraint === "blog_posts_user_slug_idx");
}

/** The updated row; null when the post is not this author's. */
export function updatePost(tx: Tx, userId: string, id: string, values: PostValues): Promise<PostRow | null> {
  return updateOwned(tx, blogPosts, userId, id, values);
}

/**
 * Deletes the post; the addresses it frees (its own and its earlier ones, which go with it), or
 * null when the post is not this author's.
 */
export async function deletePost(tx: Tx, userId: string, id: string): Promise<string[] | null> {
  const res =
    await tx.execute(sql`with gone as (delete from blog_posts where user_id = ${userId} and id = ${id} returning slug)
select slug from gone union all select slug from blog_post_slugs where user_id = ${userId} and post_id = ${id} and exists (select 1 from gone)`);
  const slugs = (res as unknown as { rows: { slug: string }[] }).rows.map((r) => r.slug);
  return slugs.length ? slugs : null;
}

/**
 * Moves the author's address counters back to the addresses a delete freed, so the next post of
 * that title takes the first free one again. A freed `a-b-3` is number 3 of `a-b`, and number 1
 * of a title whose address is `a-b-3` itself.
 */
export async function releaseSlugs(tx: Tx, userId: string, slugs: string[]): Promise<void> {
  const bases: string[] = [];
  const numbers: number[] = [];
  for (const slug of slugs) {
    bases.push(slug);
    numbers.push(1);
    const m = /^(.+)-(\d{1,9})$/.exec(slug);
    const n = Number(m?.[2]);
    if (m?.[1] && n >= 2) {
      bases.push(m[1]);
      numbers.push(n);
    }
  }
  await tx.execute(
    sql`update post_slug_counters as c set next = least(c.next, f.n) from (select unnest(${`{${bases.map((b) => `"${b}"`).join(",")}}`}::text[]) as base, unnest(${`{${numbers.join(",")}}`}::int[]) as n) f where c.user_id = ${userId} and c.base = f.base`,
  );
}

/**
 * The first of `base`, `base-2`, `base-3`… that no post of the author's has, now or before
 * (earlier addresses keep redirecting), except post `except`'s (a post may take back its own old
 * address). The candidates are tried in order until one is free, each an exact lookup in the
 * unique (user, slug) index of the live posts; the earlier addresses of this title (an author
 * renames few posts) are read once. No scan of the author's other posts, and nothing read back
 * but the answer. Race-free only after `lockAuthorPosts`, in a later statement of the same
 * transaction (which then sees every address the saves before it took).
 */
export function firstFreeSlug(userId: string, base: string, except?: string): SQL {
  const live = (slug: SQL) =>
    sql`(select true from ${blogPosts} where ${blogPosts.userId} = ${userId} and ${blogPosts.slug} = ${slug}${
      except ? sql` and ${blogPosts.id} <> ${except}` : sql``
    })`;
  // Slugs are lowercase letters, digits and '-': nothing in `base` is a LIKE wildcard.
  const earlier = sql`array(select ${blogPostSlugs.slug} from ${blogPostSlugs} where ${blogPostSlugs.userId} = ${userId} and (${blogPostSlugs.slug} = ${base}::text or ${blogPostSlugs.slug} like ${base}::text || '-%')${
    except ? sql` and ${blogPostSlugs.postId} <> ${except}` : sql``
  })`;
  const taken = (slug: SQL) => sql`(${live(slug)} or ${slug} = any (${earlier}))`;
  const numbered = sql`${base}::text || '-' || n`;
  // The walk only runs when `base` itself is taken; it stops at the first free number.
  return sql`(case when ${taken(sql`${base}::text`)} then (with recursive probe(n) as (select 2 union all select n + 1 from probe where ${taken(numbered)}) select ${base}::text || '-' || max(n) from probe) else ${base}::text end)`;
}

/** The address a save of `base` would take now (see firstFreeSlug; call after lockAuthorPosts). */
export async function selectFreeSlug(tx: Tx, userId: string, base: string, except?: string): Promise<string> {
  const res = await tx.execute(sql`select ${firstFreeSlug(userId, base, except)} as slug`);
  const slug = (res as unknown as { rows: { slug: string }[] }).rows[0]?.slug;
  if (!slug) throw new Error("no free address");
  return slug;
}

/** Keeps a post's previous address, so links to it redirect; taking back an old one removes it. */
export async function recordSlugChange(
  tx: Tx,
  userId: string,
  postId: string,
  from: string,
  to: string,
): Promise<void> {
  await tx
    .delete(blogPostSlugs)
    .where(and(eq(blogPostSlugs.userId, userId), eq(blogPostSlugs.postId, postId), eq(blogPostSlugs.slug, to)));
  await tx.insert(blogPostSlugs).values({ userId, postId, slug: from }).onConflictDoNothing();
}
