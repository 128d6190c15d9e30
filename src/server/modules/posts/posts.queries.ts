// Blog post rows. Every query takes the owner's id, so a post id alone never reaches a row.
import { and, desc, eq, like, ne, or } from "drizzle-orm";
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

export async function insertPost(
  tx: Tx,
  userId: string,
  values: { title: string; slug: string; content: string; category: PostCategory },
): Promise<PostRow> {
  const [row] = await tx
    .insert(blogPosts)
    .values({ userId, ...values })
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
 * The author's addresses that are `base` or `base-N`: live posts' slugs and earlier ones (which
 * keep redirecting), except those of post `except` (a post may take back its own old address).
 */
export async function selectSlugsLike(tx: Tx, userId: string, base: string, except?: string): Promise<Set<string>> {
  const matches = (col: typeof blogPosts.slug | typeof blogPostSlugs.slug) => or(eq(col, base), like(col, `${base}-%`));
  // One round trip for both tables: the author's post saves wait for each other around it.
  const rows = await tx
    .select({ slug: blogPosts.slug })
    .from(blogPosts)
    .where(and(eq(blogPosts.userId, userId), matches(blogPosts.slug), except ? ne(blogPosts.id, except) : undefined))
    .unionAll(
      tx
        .select({ slug: blogPostSlugs.slug })
        .from(blogPostSlugs)
        .where(
          and(
            eq(blogPostSlugs.userId, userId),
            matches(blogPostSlugs.slug),
            except ? ne(blogPostSlugs.postId, except) : undefined,
          ),
        ),
    );
  return new Set(rows.map((r) => r.slug));
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
