// Blog post rows. Every query takes the owner's id, so a post id alone never reaches a row.
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { blogPostSlugs, blogPosts, user } from "../../../db/schema/index.ts";
import type { PostCategory } from "../../../shared/enums.ts";
import { deleteOwned, selectOwned, updateOwned } from "../../lib/owned-rows.ts";

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
 * A new post at `slugBase`'s first free address, picked in the insert itself (one round trip
 * inside the author's lock; call after lockAuthorPosts).
 */
export async function insertPost(
  tx: Tx,
  userId: string,
  values: { title: string; slugBase: string; content: string; category: PostCategory },
): Promise<PostRow> {
  const { slugBase, ...rest } = values;
  const [row] = await tx
    .insert(blogPosts)
    .values({ userId, ...rest, slug: firstFreeSlug(userId, slugBase) })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** The updated row; null when the post is not this author's. */
export function updatePost(tx: Tx, userId: string, id: string, values: PostValues): Promise<PostRow | null> {
  return updateOwned(tx, blogPosts, userId, id, values);
}

/** Whether a row went; false when the post is not this author's. */
export function deletePost(tx: Tx, userId: string, id: string): Promise<boolean> {
  return deleteOwned(tx, blogPosts, userId, id);
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
function firstFreeSlug(userId: string, base: string, except?: string): SQL {
  const live = (slug: SQL) =>
    sql`exists (select 1 from ${blogPosts} where ${blogPosts.userId} = ${userId} and ${blogPosts.slug} = ${slug}${
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
