// Author HTML is cleaned before it is stored (design brief: on write and before render), so the
// database never holds a script even if a renderer forgets to clean it. The allowed set is what
// the dashboard's rich-text editor produces.
import sanitizeHtml from "sanitize-html";
import { BOOK_CARD_ATTR, isBookCardId } from "../../shared/book-card.ts";

/** A div keeps `data-book-card` only when it names a book id, and then holds nothing. */
export function bookCardDiv(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const id = attribs[BOOK_CARD_ATTR]?.trim().toLowerCase();
  return isBookCardId(id) ? { tagName, attribs: { [BOOK_CARD_ATTR]: id }, text: "" } : { tagName, attribs: {} };
}

/** What author HTML may contain, on write and (with link hardening) again on render. */
export const AUTHOR_HTML_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "code",
    "pre",
    "span",
    "div",
    "figure",
    "figcaption",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  // A div may name a book (a book card, ADR 071); `bookCardDiv` keeps that only when it is an id.
  allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "width", "height"], div: [BOOK_CARD_ATTR] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: { div: bookCardDiv },
};

/**
 * Paragraphs of plain text and nothing else: `<p>` … `</p>`, one after another, holding no markup,
 * no entity, no quote and no control character. sanitize-html gives such HTML back unchanged
 * (every tag allowed, no text it would escape), so it is its own clean form; a test holds the two
 * to the same output on many inputs. Most posts typed in the editor are this.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it turns away
const PLAIN_PARAGRAPHS = /^(?:<p>[^<>&"'\x00-\x1f\x7f]*<\/p>)+$/;

/** Author HTML with only harmless tags and attributes; null when no text or image is left. */
export function cleanAuthorHtml(html: string | null | undefined): string | null {
  if (html == null) return null;
  if (PLAIN_PARAGRAPHS.test(html)) return html.replace(/<\/?p>/g, "").trim() === "" ? null : html;
  return sanitizedAuthorHtml(html);
}

/** cleanAuthorHtml through sanitize-html, whatever the HTML (exported to test the short path against). */
export function sanitizedAuthorHtml(html: string): string | null {
  const clean = sanitizeHtml(html, AUTHOR_HTML_OPTIONS).trim();
  const text = sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, " ")
    .trim();
  if (text === "" && !/<img\s|<div data-book-card=/i.test(clean)) return null;
  return clean;
}
