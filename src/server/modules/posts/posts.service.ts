// The signed-in author's blog posts. Every function takes the owner's id (from the session);
// a post that is not theirs is 'Post not found' and nothing changes. Each change marks the
// author's site changed in the same transaction, so the public blog's cached pages drop.

import type { Db, Tx } from "../../../db/client.ts";
import type { PostCategory } from "../../../shared/enums.ts";
import { POST_MESSAGES, type Post, type PostCreate, type PostUpdate } from "../../../shared/schemas/post.ts";
import { slugify } from "../../../shared/slug.ts";
import { DomainError, notFoundError } from "../../lib/domain-error.ts";
import { cleanAuthorHtml } from "../../lib/html.ts";
import { safeSegment } from "../../lib/images.ts";
import { type Storage, UPLOADS_PREFIX } from "../../lib/storage.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./posts.queries.ts";

export const postNotFound = () => notFoundError(POST_MESSAGES.notFound);

function view(row: q.PostRow): Post {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    content: row.content,
    category: row.category as PostCategory,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Cleaned HTML; a body that was only markup or script has nothing left, which is blank. A
 * newsletter's body is cleaned the same way (it may become a post).
 */
export function cleanContent(html: string): string {
  const clean = cleanAuthorHtml(html);
  if (clean === null) throw new DomainError("required", POST_MESSAGES.required, { field: "content" });
  return clean;
}

export async function listPosts(db: Db, userId: string): Promise<Post[]> {
  return (await q.selectPosts(db, userId)).map(view);
}

export async function getPost(db: Db, userId: string, id: string): Promise<Post> {
  const row = await q.selectPost(db, userId, id);
  if (!row) throw postNotFound();
  return view(row);
}

/**
 * `base`, else `base-2`, `base-3`…: the first the author has not used (ADR 025). The author's
 * renames are serialised first, so two renames racing for one address never pick the same; a
 * create racing a rename is refused by the unique index, and the loser asks again.
 */
async function freeSlug(tx: Tx, userId: string, title: string, postId?: string): Promise<string> {
  await q.lockAuthorPosts(tx, userId);
  return q.selectFreeSlug(tx, userId, slugify(title), postId);
}

/** How many times a save asks again for an address another save took meanwhile. */
const SLUG_TRIES = 5;

/**
 * Titles (author and address) this process has seen taken, so that a create of a title already
 * used goes to the counter at once instead of trying the bare address first. Only a shortcut:
 * forgetting one costs a statement, remembering one wrongly (its post deleted since) only sends
 * the create to the counter, which gives the same address.
 */
const takenBases = new Set<string>();
const TAKEN_BASES_KEPT = 10_000;

function rememberTaken(key: string): void {
  if (takenBases.size >= TAKEN_BASES_KEPT) takenBases.clear();
  takenBases.add(key);
}

/**
 * A title's first post is one statement: inserted at the bare address when it is free, with the
 * site marked changed (ADR 084). Otherwise two, each committing on its own, and no lock shared by
 * the author's other creates held while a commit reaches the disk (ADR 074): the address is
 * handed out by the title's counter, then the post is inserted with its site marked changed. An
 * address taken meanwhile by a post of another title, or by a rename, is refused by the unique
 * index: ask again.
 */
export async function createPost(db: Db, userId: string, input: PostCreate): Promise<Post> {
  const content = cleanContent(input.content);
  const base = slugify(input.title);
  const key = `${userId}/${base}`;
  if (!takenBases.has(key)) {
    const row = await q.insertPostIfFree(db, userId, { ...input, slug: base, content });
    if (row) return view(row);
    rememberTaken(key);
  }
  return retryTakenSlug(async () => view(await q.insertPostAtNextSlug(db, userId, { ...input, base, content })));
}

/** `fn` again when the address it picked went to a create meanwhile (the unique index refused it). */
async function retryTakenSlug<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= SLUG_TRIES || !q.isSlugTaken(err)) throw err;
    }
  }
}

/** A new title moves the post to the new title's address; the old one redirects there. */
export async function updatePost(db: Db, userId: string, id: string, input: PostUpdate): Promise<Post> {
  const content = input.content === undefined ? undefined : cleanContent(input.content);
  return retryTakenSlug(() => savePost(db, userId, id, input, content));
}

async function savePost(db: Db, userId: string, id: string, input: PostUpdate, content?: string): Promise<Post> {
  const values: q.PostValues = { ...input };
  if (content !== undefined) values.content = content;
  return db.transaction(async (tx) => {
    const before = await q.selectPost(tx, userId, id);
    if (!before) throw postNotFound();
    if (input.title !== undefined && slugify(input.title) !== slugify(before.title)) {
      const slug = await freeSlug(tx, userId, input.title, id);
      if (slug !== before.slug) {
        await q.recordSlugChange(tx, userId, id, before.slug, slug);
        values.slug = slug;
      }
    }
    const row = await q.updatePost(tx, userId, id, values);
    if (!row) throw postNotFound();
    await markSiteChanged(tx, userId);
    return view(row);
  });
}

export async function deletePost(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const freed = await q.deletePost(tx, userId, id);
    if (!freed) throw postNotFound();
    await q.releaseSlugs(tx, userId, freed);
    await markSiteChanged(tx, userId);
  });
}

/**
 * How long an image uploaded in the post editor may wait for its post to be saved before it
 * counts as unused: an author may keep a post open, unsaved, for a long while.
 */
export const POST_IMAGE_GRACE_MS = 7 * 24 * 60 * 60_000;

/** The folder of the author's post images, as stored. */
export const postImagesDir = (userId: string) => `posts/${safeSegment(userId)}`;

/**
 * Deletes the author's post images that none of their posts shows any more (a post's picture
 * taken out, a post deleted), once older than `graceMs`. Posts name an image at one width (the
 * site adds the others), so every stored width of an image a post names is kept.
 */
export async function prunePostImages(
  db: Db,
  storage: Storage,
  userId: string,
  graceMs = POST_IMAGE_GRACE_MS,
): Promise<number> {
  const image = /\/uploads\/(posts\/[A-Za-z0-9_-]+\/[A-Za-z0-9-]+)-\d+\.webp/g;
  const shown = new Set<string>();
  for (const html of await q.selectPostContents(db, userId)) {
    for (const m of html.matchAll(image)) shown.add(m[1] as string);
  }
  // A stored file is kept when a post names its image, at any width: its URL less `-{width}.webp`.
  const isShown = (url: string) => shown.has(url.slice(UPLOADS_PREFIX.length).replace(/-\d+\.webp$/, ""));
  return storage.prune(postImagesDir(userId), isShown, graceMs);
}
