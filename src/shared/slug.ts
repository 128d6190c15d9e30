// A post's address under /blog/ (readable, lowercase ASCII, stable once given, ADR 025), a
// series' under /series/ (from its name), and a book's under /book/ (ADR 051).

export const SLUG_MAX = 80;

/** "Café & Crème: Part 2!" → "cafe-creme-part-2"; a title with no letters or digits gives `fallback`. */
export function slugify(title: string, fallback = "post"): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, "");
  return base || fallback;
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
