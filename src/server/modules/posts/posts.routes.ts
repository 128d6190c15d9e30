// Blog posts API. The owner is always the signed-in user; a post id that is not theirs (or not
// an id at all) answers 404 'Post not found' on every endpoint, and nothing changes.
//
// GET    /api/posts       → 200 { posts: Post[] }, newest first
// POST   /api/posts       postCreateSchema (category defaults to news) → 201 { post }
// GET    /api/posts/:id   → 200 { post }
// PATCH  /api/posts/:id   postUpdateSchema (any subset) → 200 { post }
// DELETE /api/posts/:id   → 204
//   (after a change of HTML or a delete, post images no post names, and older than a week, go)
// POST   /api/posts/images multipart 'file' → 201 { image } (WebP in two widths, for the editor to
//                          insert); 400 not an image, 413 too big
// Bad input: 400 { error: { code, message, field } }; a blank title or body is 'Please fill in all fields'.
import { z } from "zod";
import { postCreateSchema, postSchema, postUpdateSchema } from "../../../shared/schemas/post.ts";
import {
  NOT_AN_IMAGE,
  POST_IMAGE_MAX_BYTES,
  POST_IMAGE_WIDTHS,
  uploadedImageSchema,
} from "../../../shared/schemas/uploads.ts";
import type { AppVars } from "../../http/context.ts";
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, idParams, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { readUploadedFile, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { imageTooLarge, processImage, storeImage } from "../../lib/images.ts";
import * as posts from "./posts.service.ts";

/** A path id that cannot be a post's is not found. */
const postId = (raw: string | undefined) => idParam(raw, posts.postNotFound);

const tags = ["Blog"];
const IMAGE_RULES = { widths: POST_IMAGE_WIDTHS, maxBytes: POST_IMAGE_MAX_BYTES, label: "Image" };
const imageTooBig = () => imageTooLarge(IMAGE_RULES);
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
  request: { params: idParams },
  responses: { 200: onePost, ...errors(404) },
});
const update = apiRoute({
  method: "patch",
  path: "/posts/{id}",
  tags,
  summary: "Change any of a post's fields",
  request: { params: idParams, body: jsonBody(postUpdateSchema) },
  responses: { 200: onePost, ...errors(400, 404, 415) },
});
const remove = apiRoute({
  method: "delete",
  path: "/posts/{id}",
  tags,
  summary: "Delete a post",
  request: { params: idParams },
  responses: { 204: { description: "Deleted" }, ...errors(404) },
});

const uploadImage = apiRoute({
  method: "post",
  path: "/posts/images",
  tags,
  summary: "Upload an image to insert in a post",
  description: `Stored as WebP in ${POST_IMAGE_WIDTHS.length} widths. At most ${POST_IMAGE_MAX_BYTES / 1024 / 1024} MB.`,
  request: { body: uploadBody },
  middleware: [uploadLimit(POST_IMAGE_MAX_BYTES, imageTooBig)],
  responses: { 201: json(z.object({ image: uploadedImageSchema }), "The stored image"), ...errors(400, 413) },
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
    .openapi(uploadImage, async (c) => {
      const me = await requireUser(c);
      const bytes = await readUploadedFile(c, {
        maxBytes: POST_IMAGE_MAX_BYTES,
        tooLarge: imageTooBig,
        notAFile: NOT_AN_IMAGE,
        what: "image",
      });
      const stored = await storeImage(
        c.get("deps").storage,
        posts.postImagesDir(me.id),
        await processImage(bytes, IMAGE_RULES),
      );
      const widest = stored.at(-1);
      if (!widest) throw new Error("an image with no variants");
      return c.json({ image: { ...widest, variants: stored } }, 201);
    })
    .openapi(read, async (c) => {
      const me = await requireUser(c);
      const post = await posts.getPost(c.get("deps").database.db, me.id, postId(c.req.valid("param").id));
      return c.json({ post }, 200);
    })
    .openapi(update, async (c) => {
      const me = await requireUser(c);
      const id = postId(c.req.valid("param").id);
      const input = c.req.valid("json");
      const post = await posts.updatePost(c.get("deps").database.db, me.id, id, input);
      if (input.content !== undefined) await pruneImages(c, me.id);
      return c.json({ post }, 200);
    })
    .openapi(remove, async (c) => {
      const me = await requireUser(c);
      await posts.deletePost(c.get("deps").database.db, me.id, postId(c.req.valid("param").id));
      await pruneImages(c, me.id);
      return c.body(null, 204);
    });
}

/** After a post's HTML changes or it goes: the author's post images no post shows any more. */
function pruneImages(c: { get(k: "deps"): AppVars["Variables"]["deps"] }, userId: string) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "post image", () => posts.prunePostImages(database.db, storage, userId));
}
