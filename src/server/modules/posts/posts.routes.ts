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
import { collection } from "../../http/collection.ts";
import type { AppVars } from "../../http/context.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { readUploadedFile, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { imageTooLarge, processImage, storeImage } from "../../lib/images.ts";
import * as posts from "./posts.service.ts";

const route = routes({ tags: ["Blog"] });
const IMAGE_RULES = { widths: POST_IMAGE_WIDTHS, maxBytes: POST_IMAGE_MAX_BYTES, label: "Image" };
const imageTooBig = () => imageTooLarge(IMAGE_RULES);

const post = collection(route, "/posts", {
  one: json(z.object({ post: postSchema }), "The post"),
  notFound: posts.postNotFound,
  list: {
    summary: "The author's posts, newest first",
    ok: { 200: json(z.object({ posts: z.array(postSchema) }), "The posts") },
  },
  create: { summary: "Write a post (category defaults to news)", body: postCreateSchema },
  read: { summary: "One post" },
  update: { summary: "Change any of a post's fields", body: postUpdateSchema },
  remove: { summary: "Delete a post" },
});

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
    .openapi(...answer(post.list, async (c, me) => ({ posts: await posts.listPosts(db(c), me.id) })))
    .openapi(
      ...answer(post.create, async (c, me) => ({ post: await posts.createPost(db(c), me.id, c.req.valid("json")) })),
    )
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
    .openapi(...answer(post.read, async (c, me) => ({ post: await posts.getPost(db(c), me.id, post.id(c)) })))
    .openapi(
      ...answer(post.update, async (c, me) => {
        const input = c.req.valid("json");
        const saved = await posts.updatePost(db(c), me.id, post.id(c), input);
        if (input.content !== undefined) await pruneImages(c, me.id);
        return { post: saved };
      }),
    )
    .openapi(
      ...answer(post.remove, async (c, me) => {
        await posts.deletePost(db(c), me.id, post.id(c));
        await pruneImages(c, me.id);
      }),
    );
}

/** After a post's HTML changes or it goes: the author's post images no post shows any more. */
function pruneImages(c: { get(k: "deps"): AppVars["Variables"]["deps"] }, userId: string) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "post image", () => posts.prunePostImages(database.db, storage, userId));
}
