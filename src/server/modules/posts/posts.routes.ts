// Blog posts API. The owner is always the signed-in user; a post id that is not theirs (or not
// an id at all) answers 404 'Post not found' on every endpoint, and nothing changes.
//
// GET    /api/posts       → 200 { posts: Post[] }, newest first
// POST   /api/posts       postCreateSchema (category defaults to news) → 201 { post }
// GET    /api/posts/:id   → 200 { post }
// PATCH  /api/posts/:id   postUpdateSchema (any subset) → 200 { post }
// DELETE /api/posts/:id   → 204
// Bad input: 400 { error: { code, message, field } }; a blank title or body is 'Please fill in all fields'.
import { Hono } from "hono";
import { postCreateSchema, postUpdateSchema } from "../../../shared/schemas/post.ts";
import type { AppVars } from "../../http/context.ts";
import { readJson } from "../../http/errors.ts";
import { requireUser } from "../../http/session.ts";
import * as posts from "./posts.service.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot be a post's is simply not found (and never reaches the database). */
function idParam(raw: string | undefined): string {
  if (!raw || !UUID.test(raw)) throw posts.postNotFound();
  return raw.toLowerCase();
}

export function postsRoutes() {
  const r = new Hono<AppVars>();

  r.get("/posts", async (c) => {
    const me = await requireUser(c);
    return c.json({ posts: await posts.listPosts(c.get("deps").database.db, me.id) });
  });

  r.post("/posts", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, postCreateSchema);
    return c.json({ post: await posts.createPost(c.get("deps").database.db, me.id, input) }, 201);
  });

  r.get("/posts/:id", async (c) => {
    const me = await requireUser(c);
    return c.json({ post: await posts.getPost(c.get("deps").database.db, me.id, idParam(c.req.param("id"))) });
  });

  r.patch("/posts/:id", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const input = await readJson(c, postUpdateSchema);
    return c.json({ post: await posts.updatePost(c.get("deps").database.db, me.id, id, input) });
  });

  r.delete("/posts/:id", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    await posts.deletePost(c.get("deps").database.db, me.id, id);
    return c.body(null, 204);
  });

  return r;
}
