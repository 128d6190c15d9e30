// Blog posts API. The owner is always the signed-in user; a post id that is not theirs (or not
// an id at all) answers 404 'Post not found' on every endpoint, and nothing changes.
//
// GET    /api/posts       → 200 { posts: Post[] }, newest first
// POST   /api/posts       postCreateSchema (category defaults to news) → 201 { post }
// GET    /api/posts/:id   → 200 { post }
// PATCH  /api/posts/:id   postUpdateSchema (any subset) → 200 { post }
// DELETE /api/posts/:id   → 204
// Bad input: 400 { error: { code, message, field } }; a blank title or body is 'Please fill in all fields'.
import { z } from "zod";
import { postCreateSchema, postSchema, postUpdateSchema } from "../../../shared/schemas/post.ts";
import { apiRoute, apiRouter, errors, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import * as posts from "./posts.service.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot be a post's is simply not found (and never reaches the database). */
function idParam(raw: string | undefined): string {
  if (!raw || !UUID.test(raw)) throw posts.postNotFound();
  return raw.toLowerCase();
}

const tags = ["Blog"];
const params = z.object({ id: z.string() });
const onePost = json(z.object({ post: postSchema }), "The post");

const list = apiRoute({
  method: "get",
  path: "/posts",
  tags,
  summary: "The author's posts, newest first",
  responses: { 200: json(z.object({ posts: z.array(postSchema) }), "The posts") },
});
const create = apiRoute({
  method: "post",
  path: "/posts",
  tags,
  summary: "Write a post (category defaults to news)",
  request: { body: jsonBody(postCreateSchema) },
  responses: { 201: onePost, ...errors(400, 415) },
});
const read = apiRoute({
  method: "get",
  path: "/posts/{id}",
  tags,
  summary: "One post",
  request: { params },
  responses: { 200: onePost, ...errors(404) },
});
const update = apiRoute({
  method: "patch",
  path: "/posts/{id}",
  tags,
  summary: "Change any of a post's fields",
  request: { params, body: jsonBody(postUpdateSchema) },
  responses: { 200: onePost, ...errors(400, 404, 415) },
});
const remove = apiRoute({
  method: "delete",
  path: "/posts/{id}",
  tags,
  summary: "Delete a post",
  request: { params },
  responses: { 204: { description: "Deleted" }, ...errors(404) },
});

export function postsRoutes() {
  return apiRouter()
    .openapi(list, async (c) => {
      const me = await requireUser(c);
      return c.json({ posts: await posts.listPosts(c.get("deps").database.db, me.id) }, 200);
    })
    .openapi(create, async (c) => {
      const me = await requireUser(c);
      const post = await posts.createPost(c.get("deps").database.db, me.id, c.req.valid("json"));
      return c.json({ post }, 201);
    })
    .openapi(read, async (c) => {
      const me = await requireUser(c);
      const post = await posts.getPost(c.get("deps").database.db, me.id, idParam(c.req.valid("param").id));
      return c.json({ post }, 200);
    })
    .openapi(update, async (c) => {
      const me = await requireUser(c);
      const id = idParam(c.req.valid("param").id);
      const post = await posts.updatePost(c.get("deps").database.db, me.id, id, c.req.valid("json"));
      return c.json({ post }, 200);
    })
    .openapi(remove, async (c) => {
      const me = await requireUser(c);
      await posts.deletePost(c.get("deps").database.db, me.id, idParam(c.req.valid("param").id));
      return c.body(null, 204);
    });
}
