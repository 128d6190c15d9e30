// A reader magnet (ADR 068): the free book an author gives readers for signing up to their
// newsletter. One per account, an EPUB or a PDF checked by its content, offered on the site's
// sign-up form; a confirmed reader gets an expiring download link limited per reader.
import { z } from "zod";
import { namedObject } from "./fragments.ts";
import { MB } from "./uploads.ts";

export const MAGNET_MAX_BYTES = 20 * MB;
/** How long a reader's download link works after it was made. */
export const MAGNET_LINK_DAYS = 7;
/** Downloads per subscriber, whichever link they use. */
export const MAGNET_DOWNLOADS_PER_READER = 5;
/** The days of figures the author sees. */
export const MAGNET_STATS_DAYS = 30;
export const MAGNET_TITLE_MAX = 120;

export const MAGNET_TYPES = ["application/pdf", "application/epub+zip"] as const;
export type MagnetType = (typeof MAGNET_TYPES)[number];

export const MAGNET_MESSAGES = {
  noFile: "Choose an EPUB or PDF file to upload.",
  empty: "The file is empty. Choose an EPUB or PDF file. Nothing was changed.",
  notABook: "This file is not an EPUB or a PDF (we check what the file holds, not its name). Nothing was changed.",
  tooLarge: `The file is larger than ${MAGNET_MAX_BYTES / MB} MB. Make it smaller (compress its pictures) and try again. Nothing was changed.`,
  titleRequired: "Please enter the title readers see in the offer",
  titleTooLong: `The title can be at most ${MAGNET_TITLE_MAX} characters`,
  notFound: "You have no free book yet. Upload one first.",
  saved: "Free book saved",
  removed: "Free book removed",
  failed: "Could not save the free book",
} as const;

export const magnetTitleSchema = z.object({
  title: z
    .string({ error: MAGNET_MESSAGES.titleRequired })
    .trim()
    .min(1, { error: MAGNET_MESSAGES.titleRequired })
    .max(MAGNET_TITLE_MAX, { error: MAGNET_MESSAGES.titleTooLong }),
});
export type MagnetTitle = z.infer<typeof magnetTitleSchema>;

export const magnetSchema = namedObject("ReaderMagnet", {
  /** The title readers see: "Get <i>title</i> free". */
  title: z.string(),
  /** The name the reader's download is saved under. */
  fileName: z.string(),
  size: z.number().int(),
  type: z.enum(MAGNET_TYPES),
  updatedAt: z.string(),
});
export type Magnet = z.infer<typeof magnetSchema>;

export const magnetStateSchema = namedObject("ReaderMagnetState", {
  magnet: magnetSchema.nullable(),
  /** Downloads per UTC day, the last MAGNET_STATS_DAYS days oldest first, every day listed (0 included). */
  downloads: z.array(z.object({ date: z.string(), count: z.number().int() })),
  /** Downloads over those days. */
  total: z.number().int(),
});
export type MagnetState = z.infer<typeof magnetStateSchema>;

/** "EPUB" or "PDF", as the screen and the site name the file. */
export const magnetKind = (type: MagnetType) => (type === "application/pdf" ? "PDF" : "EPUB");
