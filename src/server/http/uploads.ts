// File uploads to the API (covers, author photos, hero images, post images, a subscriber CSV): one multipart field
// 'file', a size limit applied while the body streams in, and the bytes handed to the image
// pipeline (src/server/lib/images.ts), which judges what they are.
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ImageVariants } from "../../db/schema/books.ts";
import { NOT_AN_IMAGE } from "../../shared/schemas/uploads.ts";
import type { DomainError } from "../lib/domain-error.ts";
import { type ImageRules, imageTooLarge, processImage, storeImage } from "../lib/images.ts";
import type { Logger } from "../lib/logger.ts";
import type { AppVars } from "./context.ts";
import { errorBody, HttpError } from "./errors.ts";

/** Upload routes take bigger bodies than the API's JSON limit; each applies its own (uploadLimit). */
export const UPLOAD_PATH =
  /^\/api\/(?:books\/[^/]+\/cover|profile\/photo|site\/hero|posts\/images|newsletter\/subscribers\/import|newsletter\/magnet\/file)\/?$/;

/** The request body of an upload route, for the OpenAPI document. */
export const uploadBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        properties: { file: { type: "string" as const, format: "binary" } },
        required: ["file"],
      },
    },
  },
};

/** Refuses a body over `maxBytes` (plus the multipart envelope) before it is all read. */
export function uploadLimit(maxBytes: number, tooLarge: () => DomainError) {
  return bodyLimit({
    maxSize: maxBytes + 64 * 1024,
    onError: (c) =>
      c.json(errorBody("payload_too_large", tooLarge().message, { field: "file" }), 413, { Connection: "close" }),
  });
}

type UploadRules = { maxBytes: number; tooLarge: () => DomainError; notAFile: string; what: string };

/** The uploaded file's bytes; a 4xx naming the 'file' field when there is none or it is too big. */
export async function readUploadedFile(c: Context, rules: UploadRules): Promise<Uint8Array> {
  return (await readNamedUpload(c, rules)).bytes;
}

/** The uploaded file's bytes and the name the browser sent with it (not to be trusted for its type). */
export async function readNamedUpload(c: Context, rules: UploadRules): Promise<{ bytes: Uint8Array; name: string }> {
  if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new HttpError(400, `Send the ${rules.what} as multipart/form-data with a 'file' field`, { field: "file" });
  }
  let file: unknown;
  try {
    file = (await c.req.parseBody()).file;
  } catch {
    throw new HttpError(400, "The upload could not be read. Please try again.", { field: "file" });
  }
  if (!(file instanceof File)) throw new HttpError(400, rules.notAFile, { field: "file" });
  if (file.size > rules.maxBytes) throw rules.tooLarge();
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

/**
 * The uploaded picture, read under `rules` (its size limit, and its label for messages: "Photo"
 * → "Send the photo as…"), made into WebP variants and stored in `dir`.
 */
export async function storeUploadedImage(
  c: Context<AppVars>,
  rules: ImageRules & { label: string },
  dir: string,
): Promise<ImageVariants> {
  const bytes = await readUploadedFile(c, {
    maxBytes: rules.maxBytes,
    tooLarge: () => imageTooLarge(rules),
    notAFile: NOT_AN_IMAGE,
    what: rules.label.toLowerCase(),
  });
  return storeImage(c.get("deps").storage, dir, await processImage(bytes, rules));
}

/** Replaced files are removed after the answer is decided: a failure there is logged, not shown. */
export async function tidyUploads(logger: Logger, what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    logger.warn({ err }, `could not remove old ${what} files`);
  }
}
