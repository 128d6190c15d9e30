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
import { answer, db } from "../../http/handlers.ts";
import { idParam } from "../../http/ids.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { readUploadedFile, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { imageTooLarge, processImage, storeImage } from "../../lib/images.ts";
import * as posts from "./posts.service.ts";

/** A path id that cannot be a post's is not found. */
const postId = (raw: string | undefined) => idParam(raw, posts.postNotFound);

const route = routes({ tags: ["Blog"] });
const IMAGE_RULES = { widths: POST_IMAGE_WIDTHS, maxBytes: POST_IMAGE_MAX_BYTES, label: "Image" };
const imageTooBig = () => imageTooLarge(IMAGE_RULES);
const onePost = json(z.object({ post: postSchema }), "The post");

const list = route.get("/posts", {
  summary: "The author's posts, newest first",
  ok: { 200: json(z.object({ posts: z.array(postSchema) }), "The posts") },
});
const create = route.post("/posts", {
  summary: "Write a post (category defaults to news)",
  body: postCreateSchema,
  ok: { 201: onePost },
});
const read = route.get("/posts/{id}", { summary: "One post", ok: { 200: onePost } });
const update = route.patch("/posts/{id}", {
  summary: "Change any of a post's fields",
  body: postUpdateSchema,
  ok: { 200: onePost },
});
const remove = route.delete("/posts/{id}", { summary: "Delete a post", ok: { 204: { description: "Deleted" } } });

const uploadImage = route.post("/posts/images", {
  summary: "Upload an image to insert in a post",
  description: `Stored as WebP in ${POST_IMAGE_WIDTHS.length} widths. At most ${POST_IMAGE_MAX_BYTES / 1024 / 1024} MB.`,
  body: uploadBody,
  middleware: [uploadLimit(POST_IMAGE_MAX_BYTES, imageTooBig)],
  ok: { 201: json(z.object({ image: uploadedImageSchema }), "The stored image") },
  errors: [413],
});

export function postsRoutes() {
  return apiRouter()
    .openapi(...answer(list, async (c, me) => ({ posts: await posts.listPosts(db(c), me.id) })))
    .openapi(...answer(create, async (c, me) => ({ post: await posts.createPost(db(c), me.id, c.req.valid("json")) })))
    .openapi(
      ...answer(uploadImage, async (c, me) => {
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
        return { image: { ...widest, variants: stored } };
      }),
    )
    .openapi(
      ...answer(read, async (c, me) => ({ post: await posts.getPost(db(c), me.id, postId(c.req.valid("param").id)) })),
    )
    .openapi(
      ...answer(update, async (c, me) => {
        const input = c.req.valid("json");
        const post = await posts.updatePost(db(c), me.id, postId(c.req.valid("param").id), input);
        if (input.content !== undefined) await pruneImages(c, me.id);
        return { post };
      }),
    )
    .openapi(
      ...answer(remove, async (c, me) => {
        await posts.deletePost(db(c), me.id, postId(c.req.valid("param").id));
        await pruneImages(c, me.id);
      }),
    );
}

/** After a post's HTML changes or it goes: the author's post images no post shows any more. */
function pruneImages(c: { get(k: "deps"): AppVars["Variables"]["deps"] }, userId: string) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "post image", () => posts.prunePostImages(database.db, storage, userId));
}
