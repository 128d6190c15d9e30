// Uploaded pictures other than covers: the author's photo, the home page's hero image and images
// in blog posts. Sizes are the widths stored (WebP, never enlarged); the browser picks one.
import { z } from "zod";
import { namedObject } from "./fragments.ts";

export const MB = 1024 * 1024;

export const PHOTO_MAX_BYTES = 10 * MB;
/** Square (cropped around the most interesting part). */
export const PHOTO_WIDTHS = [200, 400, 800] as const;

export const HERO_MAX_BYTES = 15 * MB;
/** The spec's advice: 1920 × 800 or larger. */
export const HERO_WIDTHS = [768, 1280, 1920] as const;

export const POST_IMAGE_MAX_BYTES = 10 * MB;
export const POST_IMAGE_WIDTHS = [640, 1280] as const;

export const NOT_AN_IMAGE = "Please select an image file";

/** Where our own uploads are served; stored as an image address alongside https:// ones. */
export const UPLOAD_URL = /^\/uploads\/[A-Za-z0-9_/-]+\.webp$/;

export const imageVariantsSchema = z.array(z.object({ width: z.number(), height: z.number(), url: z.string() }));

export const uploadedImageSchema = namedObject("UploadedImage", {
  /** The widest variant: what an <img src> or a stored address points at. */
  url: z.string(),
  width: z.number(),
  height: z.number(),
  variants: imageVariantsSchema,
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;

/** What the browser can check before sending (the server judges the bytes anyway). */
export function quickImageProblem(file: File, maxBytes: number, label: string): string | null {
  if (!file.type.startsWith("image/") || file.type === "image/svg+xml") return NOT_AN_IMAGE;
  if (file.size > maxBytes) return `${label} must be ${maxBytes / MB} MB or smaller`;
  return null;
}
