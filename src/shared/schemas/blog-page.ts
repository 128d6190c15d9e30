// The Blog page's heading and introduction. Left empty, the spec's defaults show.
import { z } from "zod";

export const BLOG_PAGE_DEFAULTS = {
  title: "Blog",
  description: "Stay updated with my latest posts, book releases, events, and thoughts on writing.",
} as const;
export const BLOG_TITLE_MAX = 80;
export const BLOG_DESCRIPTION_MAX = 300;

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .nullable()
    .transform((v) => (v ? v : null));

/** null: the default shows. */
export const blogPageSchema = z
  .strictObject({
    title: optionalText("Title", BLOG_TITLE_MAX),
    description: optionalText("Description", BLOG_DESCRIPTION_MAX),
  })
  .meta({ id: "BlogPage" });
export type BlogPage = z.output<typeof blogPageSchema>;

export const BLOG_PAGE_MESSAGES = {
  saved: "Blog page saved successfully!",
  failed: "Failed to save blog page",
} as const;
