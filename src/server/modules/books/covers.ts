// Cover images: the shared image rules (src/server/lib/images.ts) at cover sizes. Same convention
// as the demo seed: variants widest last, the book's cover_image_url is the widest one.
import type { ImageVariants } from "../../../db/schema/books.ts";
import { COVER_MAX_BYTES, COVER_WIDTHS } from "../../../shared/schemas/book.ts";
import {
  IMAGE_MAX_PIXELS,
  imageTooLarge,
  type ProcessedImage,
  processImage,
  safeSegment,
  storeImage,
} from "../../lib/images.ts";
import type { Storage } from "../../lib/storage.ts";

export const COVER_MAX_PIXELS = IMAGE_MAX_PIXELS;
const COVER_RULES = { widths: COVER_WIDTHS, maxBytes: COVER_MAX_BYTES, label: "Cover image" };

export const coverTooLarge = () => imageTooLarge(COVER_RULES);

export type ProcessedCover = ProcessedImage;

/** The WebP variants of an uploaded cover, or a 4xx that says what is wrong with it. */
export const processCover = (bytes: Uint8Array): Promise<ProcessedCover> => processImage(bytes, COVER_RULES);

/** Every stored version of one book's cover lives in this folder. */
export function coverDir(userId: string, bookId: string): string {
  return `covers/${safeSegment(userId)}/${safeSegment(bookId)}`;
}

/** Stores the variants under a fresh name (served with a year's cache, so names never repeat). */
export function storeCover(
  storage: Storage,
  owner: { userId: string; bookId: string },
  cover: ProcessedCover,
): Promise<ImageVariants> {
  return storeImage(storage, coverDir(owner.userId, owner.bookId), cover);
}
