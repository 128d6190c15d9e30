// The text of author HTML, for an excerpt, a meta description or a count: the same words on the
// public site (src/sites/sanitize.ts) and in the dashboard (the blog's list).

/** The end of a block: a space goes before it so the words of two paragraphs do not run together. */
const BLOCK_END = /<\/(p|div|h\d|li|br)>/gi;

/** A plain tag stripper, enough for the author's own HTML shown back to them. */
const stripTags = (html: string) => html.replace(/<[^>]*>/g, "");

/**
 * The text of `html`, white space folded. `strip` removes the tags (the public site passes its
 * sanitiser, which also drops what scripts and styles hold); the entities the editor and the
 * sanitiser write are decoded.
 */
export function htmlToText(html: string, strip: (html: string) => string = stripTags): string {
  return strip(html.replace(BLOCK_END, " $&"))
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}
