// The one place author HTML is cleaned before it reaches a public page.
import sanitizeHtml from "sanitize-html";
import { AUTHOR_HTML_OPTIONS } from "../server/lib/html.ts";
import { htmlToText } from "../shared/html-text.ts";
import { POST_IMAGE_WIDTHS } from "../shared/schemas/uploads.ts";
import { memoByString } from "./memo.ts";

const SMALL_WIDTH = POST_IMAGE_WIDTHS[0];
const POST_UPLOAD = /^(\/uploads\/posts\/[A-Za-z0-9_-]+\/[A-Za-z0-9-]+)-(\d+)\.webp$/;

// The same allowed set as on write; links additionally leave the site with no referrer and
// no window.opener.
// Pictures load as the reader scrolls to them; our own uploaded post images also offer their
// smaller width (uploads are stored as {name}-640.webp and {name}-{widest}.webp, ADR 028).
const OPTIONS: sanitizeHtml.IOptions = {
  ...AUTHOR_HTML_OPTIONS,
  allowedAttributes: {
    ...AUTHOR_HTML_OPTIONS.allowedAttributes,
    a: ["href", "title", "rel"],
    img: ["src", "alt", "width", "height", "srcset", "sizes", "loading", "decoding"],
  },
  transformTags: {
    ...AUTHOR_HTML_OPTIONS.transformTags,
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }),
    img: (tagName, attribs) => {
      const { srcset: _ignored, sizes: _ignoredToo, ...own } = attribs;
      const out: Record<string, string> = { ...own, loading: "lazy", decoding: "async" };
      const upload = POST_UPLOAD.exec(own.src ?? "");
      if (upload && Number(upload[2]) > SMALL_WIDTH) {
        out.srcset = `${upload[1]}-${SMALL_WIDTH}.webp ${SMALL_WIDTH}w, ${upload[0]} ${upload[2]}w`;
        out.sizes = "(max-width: 760px) 100vw, 44rem";
      }
      return { tagName, attribs: out };
    },
  },
};

// Both are pure functions of the author's HTML and sit on every uncached page render, so each
// input is cleaned once (memoByString) rather than on every render.
const clean = memoByString((html) => sanitizeHtml(html, OPTIONS));
const text = memoByString((html) =>
  htmlToText(html, (marked) => sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} })),
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
