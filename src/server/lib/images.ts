// Uploaded pictures (covers, author photos, hero images, post images): judged by their bytes
// (never the file name or the declared type), decoded with sharp, turned upright, stripped of
// metadata (EXIF, GPS, comments) and stored as WebP in a few widths for srcset. Variants are
// widest last; a stored image's own URL is its widest variant.
import { randomUUID } from "node:crypto";
import type { Metadata } from "sharp";
import type { ImageVariants } from "../../db/schema/books.ts";
import { NOT_AN_IMAGE } from "../../shared/schemas/uploads.ts";
import { DomainError } from "./domain-error.ts";
import type { Storage } from "./storage.ts";

/** Decoding a bigger picture than this costs more memory than any page needs. */
export const IMAGE_MAX_PIXELS = 50_000_000;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);

export { NOT_AN_IMAGE } from "../../shared/schemas/uploads.ts";

export type ImageRules = {
  /** The widths to store (a small original gives fewer: never enlarged). */
  widths: readonly number[];
  maxBytes: number;
  /** Width ÷ height to crop to (centred, 'attention' strategy); absent keeps the picture's own shape. */
  aspect?: number;
  /** What the picture is, for messages: "Cover image", "Photo"… */
  label?: string;
};

export type ProcessedImage = { width: number; height: number; data: Buffer }[];

export const imageTooLarge = (rules: Pick<ImageRules, "maxBytes" | "label">) =>
  new DomainError(
    "payload_too_large",
    `${rules.label ?? "Image"} must be ${rules.maxBytes / (1024 * 1024)} MB or smaller`,
    {
      field: "file",
    },
  );
const notAnImage = () => new DomainError("validation_failed", NOT_AN_IMAGE, { field: "file" });

/** The WebP variants of an uploaded image, or a 4xx that says what is wrong with it. */
export async function processImage(bytes: Uint8Array, rules: ImageRules): Promise<ProcessedImage> {
  // sharp (libvips) is loaded with the first upload: a process that serves pages never needs it (ADR 037).
  const { default: sharp } = await import("sharp");
  if (bytes.byteLength === 0) throw notAnImage();
  if (bytes.byteLength > rules.maxBytes) throw imageTooLarge(rules);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw notAnImage();
  }
  // SVG is a document, not a picture: it can reference other files, so it is not accepted.
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) throw notAnImage();
  if (meta.width * meta.height > IMAGE_MAX_PIXELS) {
    throw new DomainError(
      "payload_too_large",
      `This image is too large (${meta.width} × ${meta.height} pixels). Please use one of at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels.`,
      { field: "file" },
    );
  }
  const out: ProcessedImage = [];
  try {
    for (const width of rules.widths) {
      // 'warning' (sharp's strictest): a JPEG whose scan data is garbage only warns at 'error'
      // and would be stored as a grey smear; telling the author is better than a broken picture.
      let img = sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: "warning" }).rotate();
      if (rules.aspect) {
        // The upright size decides how big a crop the original allows (EXIF orientations 5–8 swap).
        const swapped = (meta.orientation ?? 1) >= 5;
        const srcW = swapped ? meta.height : meta.width;
        const srcH = swapped ? meta.width : meta.height;
        const maxW = Math.min(srcW, Math.floor(srcH * rules.aspect));
        const w = Math.min(width, maxW);
        img = img.resize({
          width: w,
          height: Math.max(1, Math.round(w / rules.aspect)),
          fit: "cover",
          position: "attention",
        });
      } else {
        img = img.resize({ width, withoutEnlargement: true });
      }
      const { data, info } = await img.webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
      // A small original gives the same width more than once; keep one of each.
      if (out.some((v) => v.width === info.width)) continue;
      out.push({ width: info.width, height: info.height, data });
    }
  } catch {
    throw new DomainError(
      "validation_failed",
      "This image could not be read: the file may be damaged. Please choose another image.",
      {
        field: "file",
      },
    );
  }
  return out.sort((a, b) => a.width - b.width);
}

/** A storage path segment from an id (ids are uuids or better-auth ids; anything else is made safe). */
export const safeSegment = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

/** Stores the variants in `dir` under a fresh name (served with a year's cache, so names never repeat). */
export async function storeImage(storage: Storage, dir: string, image: ProcessedImage): Promise<ImageVariants> {
  const stem = `${dir}/${randomUUID()}`;
  const variants: ImageVariants = [];
  for (const v of image) {
    const url = await storage.put(`${stem}-${v.width}.webp`, v.data, "image/webp");
    variants.push({ width: v.width, height: v.height, url });
  }
  return variants;
}
