// The signed-in author's blog posts. Every function takes the owner's id (from the session);
// a post that is not theirs is 'Post not found' and nothing changes. Each change marks the
// author's site changed in the same transaction, so the public blog's cached pages drop.

import type { Db } from "../../../db/client.ts";
import type { PostCategory } from "../../../shared/enums.ts";
import { POST_MESSAGES, type Post, type PostCreate, type PostUpdate } from "../../../shared/schemas/post.ts";
import { slugify } from "../../../shared/slug.ts";
import { HttpError } from "../../http/errors.ts";
import { cleanAuthorHtml } from "../../lib/html.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./posts.queries.ts";

export const postNotFound = () => new HttpError(404, POST_MESSAGES.notFound);

function view(row: q.PostRow): Post {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    category: row.category as PostCategory,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Cleaned HTML; a body that was only markup or script has nothing left, which is blank. */
function cleanContent(html: string): string {
  const clean = cleanAuthorHtml(html);
  if (clean === null) throw new HttpError(400, POST_MESSAGES.required, { field: "content", code: "required" });
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

export async function createPost(db: Db, userId: string, input: PostCreate): Promise<Post> {
  // Placeholder until unique slugs per author are assigned (issue 15, blog post pages).
  const values = { ...input, slug: slugify(input.title), content: cleanContent(input.content) };
  return db.transaction(async (tx) => {
    const row = await q.insertPost(tx, userId, values);
    await markSiteChanged(tx, userId);
    return view(row);
  });
}

export async function updatePost(db: Db, userId: string, id: string, input: PostUpdate): Promise<Post> {
  const values: q.PostValues = { ...input };
  if (input.content !== undefined) values.content = cleanContent(input.content);
  return db.transaction(async (tx) => {
    const row = await q.updatePost(tx, userId, id, values);
    if (!row) throw postNotFound();
    await markSiteChanged(tx, userId);
    return view(row);
  });
}

export async function deletePost(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await q.deletePost(tx, userId, id))) throw postNotFound();
    await markSiteChanged(tx, userId);
  });
}
