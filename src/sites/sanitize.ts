// The one place author HTML is cleaned before it reaches a public page.
import sanitizeHtml from "sanitize-html";
import { AUTHOR_HTML_OPTIONS } from "../server/lib/html.ts";
import { memoByString } from "./memo.ts";

// The same allowed set as on write; links additionally leave the site with no referrer and
// no window.opener.
const OPTIONS: sanitizeHtml.IOptions = {
  ...AUTHOR_HTML_OPTIONS,
  allowedAttributes: { ...AUTHOR_HTML_OPTIONS.allowedAttributes, a: ["href", "title", "rel"] },
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }) },
};

// Both are pure functions of the author's HTML and sit on every uncached page render, so each
// input is cleaned once (memoByString) rather than on every render.
const clean = memoByString((html) => sanitizeHtml(html, OPTIONS));
const text = memoByString((html) =>
  sanitizeHtml(html.replace(/<\/(p|div|h\d|li|br)>/gi, " $&"), { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim(),
);

export function cleanHtml(html: string | null | undefined): string {
  return html ? clean(html) : "";
}

/** Text content of author HTML, whitespace collapsed. */
export function plainText(html: string | null | undefined): string {
  return html ? text(html) : "";
}

export function cut(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n).trimEnd()}...` : text;
}
