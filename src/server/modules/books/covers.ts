// Cover images: judged by their bytes (never the file name or the declared type), decoded with
// sharp, turned upright, stripped of metadata (EXIF, GPS, comments) and stored as WebP in a few
// widths for the public pages' srcset. Same convention as the demo seed: variants widest last,
// the book's cover_image_url is the widest one.
import { randomUUID } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import type { ImageVariants } from "../../../db/schema/books.ts";
import { BOOK_MESSAGES, COVER_MAX_BYTES, COVER_WIDTHS } from "../../../shared/schemas/book.ts";
import { HttpError } from "../../http/errors.ts";
import type { Storage } from "../../lib/storage.ts";

/** Decoding a bigger picture than this costs more memory than any cover needs. */
export const COVER_MAX_PIXELS = 50_000_000;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);

export const coverTooLarge = () =>
  new HttpError(413, `Cover image must be ${COVER_MAX_BYTES / (1024 * 1024)} MB or smaller`, { field: "file" });
const notAnImage = () => new HttpError(400, BOOK_MESSAGES.notImage, { field: "file" });

export type ProcessedCover = { width: number; height: number; data: Buffer }[];

/** The WebP variants of an uploaded image, or a 4xx that says what is wrong with it. */
export async function processCover(bytes: Uint8Array): Promise<ProcessedCover> {
  if (bytes.byteLength === 0) throw notAnImage();
  if (bytes.byteLength > COVER_MAX_BYTES) throw coverTooLarge();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw notAnImage();
  }
  // SVG is a document, not a picture: it can reference other files, so it is not accepted.
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) throw notAnImage();
  if (meta.width * meta.height > COVER_MAX_PIXELS) {
    throw new HttpError(
      413,
      `This image is too large (${meta.width} × ${meta.height} pixels). Please use one of at most ${COVER_MAX_PIXELS / 1_000_000} megapixels.`,
      { field: "file" },
    );
  }
  const out: ProcessedCover = [];
  try {
    for (const width of COVER_WIDTHS) {
      // 'warning' (sharp's strictest): a JPEG whose scan data is garbage only warns at 'error'
      // and would be stored as a grey smear; telling the author is better than a broken cover.
      const { data, info } = await sharp(bytes, { limitInputPixels: COVER_MAX_PIXELS, failOn: "warning" })
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      // A small original gives the same width more than once; keep one of each.
      if (out.some((v) => v.width === info.width)) continue;
      out.push({ width: info.width, height: info.height, data });
    }
  } catch {
    throw new HttpError(400, "This image could not be read: the file may be damaged. Please choose another image.", {
      field: "file",
    });
  }
  return out.sort((a, b) => a.width - b.width);
}

const safeSegment = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

/** Every stored version of one book's cover lives in this folder. */
export function coverDir(userId: string, bookId: string): string {
  return `covers/${safeSegment(userId)}/${safeSegment(bookId)}`;
}

/** Stores the variants under a fresh name (served with a year's cache, so names never repeat). */
export async function storeCover(
  storage: Storage,
  owner: { userId: string; bookId: string },
  cover: ProcessedCover,
): Promise<ImageVariants> {
  const stem = `${coverDir(owner.userId, owner.bookId)}/${randomUUID()}`;
  const variants: ImageVariants = [];
  for (const v of cover) {
    const url = await storage.put(`${stem}-${v.width}.webp`, v.data, "image/webp");
    variants.push({ width: v.width, height: v.height, url });
  }
  return variants;
}
