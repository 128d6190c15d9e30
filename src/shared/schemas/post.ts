// Blog posts: one schema for the post form and the API, so both give the spec's message
// ('Please fill in all fields') for a blank title or body. The server also cleans the HTML.
import { z } from "zod";
import { POST_CATEGORIES, type PostCategory } from "../enums.ts";
import { namedObject, stamps } from "./fragments.ts";
import { partialUpdate } from "./text.ts";

export const POST_LIMITS = { title: 200, content: 100_000 } as const;

export const POST_MESSAGES = {
  required: "Please fill in all fields",
  created: "Post created successfully!",
  updated: "Post updated successfully!",
  deleted: "Post deleted successfully!",
  saveFailed: "Failed to save post",
  deleteFailed: "Failed to delete post",
  loadFailed: "Failed to load posts",
  notFound: "Post not found",
  confirmDelete: "Are you sure you want to delete this post?",
} as const;

export const CATEGORY_LABELS: Record<PostCategory, string> = {
  news: "News",
  books: "Books",
  events: "Events",
  thoughts: "Thoughts",
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Whether HTML has something a reader would see: text once tags are gone, or an image. The
 * editor sends '<p></p>' for an empty body, which must count as blank.
 */
export function hasVisibleContent(html: string): boolean {
  const text = html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;|&#xa0;/gi, " ")
    .trim();
  return text !== "" || /<img\s/i.test(html);
}

const title = z
  .string({ error: "Title must be text" })
  .trim()
  .min(1, { error: POST_MESSAGES.required })
  .max(POST_LIMITS.title, { error: `Title must be at most ${POST_LIMITS.title} characters` })
  .refine((v) => !CONTROL.test(v), { error: "Title contains characters that are not allowed" });

/** Rich text (HTML) from the editor (a post's, or a newsletter's); the server cleans it before storing. */
export const richContent = z
  .string({ error: "Content must be text" })
  .max(POST_LIMITS.content, {
    error: `Content must be at most ${POST_LIMITS.content.toLocaleString("en-GB")} characters`,
  })
  .refine((v) => !CONTROL.test(v), { error: "Content contains characters that are not allowed" })
  .refine(hasVisibleContent, { error: POST_MESSAGES.required });

const category = z.enum(POST_CATEGORIES, { error: `Category must be one of ${POST_CATEGORIES.join(", ")}` });

export const postCreateSchema = z.strictObject({
  title,
  content: richContent,
  category: category.default("news"),
});

/** An edit may send only what changed. */
export const postUpdateSchema = partialUpdate(z.strictObject({ title, content: richContent, category }));

export type PostCreate = z.output<typeof postCreateSchema>;
export type PostCreateInput = z.input<typeof postCreateSchema>;
export type PostUpdate = z.output<typeof postUpdateSchema>;

/** A post as the API answers it. */
export const postSchema = namedObject("Post", {
  id: z.string(),
  title: z.string(),
  /** The post's address on the public site: /blog/{slug}. */
  slug: z.string(),
  content: z.string(),
  category: z.enum(POST_CATEGORIES),
  ...stamps,
});
export type Post = z.infer<typeof postSchema>;
