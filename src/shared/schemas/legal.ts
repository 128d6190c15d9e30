// The site's Privacy & Legal page: the author's own text (rich HTML, cleaned on the server) and
// whether readers see it. One row per author (legal_pages, page type 'privacy_legal').
import { z } from "zod";
import { namedObject } from "./fragments.ts";

export const LEGAL_CONTENT_MAX = 50_000;

export const legalSchema = z.strictObject({
  content: z
    .string({ error: "Content must be text" })
    .max(LEGAL_CONTENT_MAX, {
      error: `Content must be at most ${LEGAL_CONTENT_MAX.toLocaleString("en-GB")} characters`,
    })
    .nullable(),
  isEnabled: z.boolean({ error: "Show the page must be true or false" }),
});

export type LegalInput = z.input<typeof legalSchema>;
/**
 * As stored and shown: content is null when nothing readable is left after cleaning; readers then
 * see `generated`, the notice made from what the site collects (ADR 052).
 */
export type Legal = { content: string | null; isEnabled: boolean; generated: string };

export const legalViewSchema = namedObject("Legal", {
  content: z.string().nullable(),
  isEnabled: z.boolean(),
  generated: z.string(),
});

export const LEGAL_MESSAGES = {
  saved: "Legal content saved successfully!",
  failed: "Failed to save legal content",
} as const;
