// A post's address under /blog/: readable, lowercase ASCII, stable once given (ADR 025).

export const SLUG_MAX = 80;

/** "Café & Crème: Part 2!" → "cafe-creme-part-2"; a title with no letters or digits gives "post". */
export function slugify(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, "");
  return base || "post";
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
