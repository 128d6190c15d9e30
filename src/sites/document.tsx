// The HTML document around every page: the SEO head (title, description, canonical, Open Graph,
// JSON-LD), the theme's stylesheet, the one inline script, and the security headers that go with them.
import { createHash } from "node:crypto";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { sectionShown } from "../server/modules/sites/sites.service.ts";
import { memoBy } from "./memo.ts";
import { href, Layout, type PageEnv, siteName } from "./pages/layout.tsx";
import { cut } from "./sanitize.ts";
import { themeCss, themeKey } from "./theme.ts";

// The only inline script: cookie banner without a round trip, demo Close as window.close, and the
// newsletter frame sized to what it holds (its document posts its height, `EMBED_SIZER`).
const SCRIPT = `(function(){addEventListener("message",function(e){var f=document.querySelector("iframe.embed"),h=e.data&&e.data.bookplateEmbedHeight;if(f&&e.source===f.contentWindow&&typeof h==="number"&&h>0)f.style.height=Math.min(Math.ceil(h),4000)+"px"});var f=document.getElementById("cc");f&&f.addEventListener("submit",function(e){e.preventDefault();var b=e.submitter;if(!b||!b.dataset.close)document.cookie="cookie_consent="+(b?b.value:"declined")+";path=/;max-age=31536000;samesite=lax";f.remove()});var d=document.getElementById("demo-close");d&&d.addEventListener("click",function(e){if(window.opener){e.preventDefault();window.close()}})})()`;
const SCRIPT_HASH = `'sha256-${createHash("sha256").update(SCRIPT).digest("base64")}'`;

/**
 * The newsletter frame's document: the author's provider code, then a script of ours that tells
 * the page around it how tall it is, whenever that changes, so the frame is never cut off or
 * padded. It measures the body, not the viewport, so a frame can shrink as well as grow.
 */
const EMBED_SIZER = `<script>(function(){function p(){var b=document.body;if(!b)return;var m=parseFloat(getComputedStyle(b).marginBottom)||0;parent.postMessage({bookplateEmbedHeight:Math.max(b.scrollHeight+b.offsetTop,b.getBoundingClientRect().bottom)+m},"*")}addEventListener("load",p);window.ResizeObserver&&new ResizeObserver(p).observe(document.body);p()})()</script>`;

export const embedDocument = (code: string) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body>${code}${EMBED_SIZER}</body></html>`;

/** @param frameSrc where the page may frame (the newsletter embed): its own origin, or the site's. */
function csp(styleHash: string, frameSrc: string): string {
  return [
    "default-src 'none'",
    `script-src ${SCRIPT_HASH}`,
    `style-src ${styleHash}`,
    "img-src 'self' https: data:",
    "font-src 'self'",
    // No script of ours fetches anything; crawlers' tools (Lighthouse) read robots.txt this way.
    "connect-src 'self'",
    `frame-src ${frameSrc}`,
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'self'",
  ].join("; ");
}

type Head = { title: string; description?: string; image?: string | null; jsonLd?: unknown[]; type?: string };
export type Page = { status: number; head: Head; body: ReactElement };

/** A rendered answer, before the caching headers that depend on the request are added. */
export type Out = {
  status: number;
  /** A page's text, or a file's bytes (a reader's download, always personal). */
  body: string | Uint8Array<ArrayBuffer> | null;
  headers: Record<string, string>;
  /** Depends on more than the site and the address (form input, a token): never cached or shared. */
  personal?: boolean;
  /** An HTML page a reader looks at (not a feed, the sitemap or the newsletter frame). */
  view?: boolean;
  /** When the page stops being right (ms since the epoch): a countdown's next midnight. */
  expiresAt?: number;
  /** A request header the page depends on besides Cookie and Accept-Encoding (for Vary). */
  vary?: string;
  /** The store it shows first, counted with each view (ADR 036). */
  store?: { bookId: string; store: string };
};

export const HTML = "text/html; charset=UTF-8";

export const safeCssUrl = (u: string) => (/^(https:\/\/|\/uploads\/)[^"'()\\\s<>]+$/.test(u) ? u : null);

/** An address of an uploaded file in the page: in an attribute, a srcset or a CSS url(). */
const UPLOAD_REF = /(["'(\s,])\/uploads\/(?=[A-Za-z0-9_-]+\/)/g;

/**
 * Stored addresses stay /uploads/{key} (the app serves them from any store); with a public base
 * for the store (a CDN), readers fetch them from there instead.
 */
const publicUploads = (html: string, uploadsBase: string | null) =>
  uploadsBase ? html.replace(UPLOAD_REF, `$1${uploadsBase}/`) : html;

/**
 * What a page's document takes from its site's look alone: the stylesheet (two thirds of a book
 * page's bytes), its CSP hash, the fonts it preloads, and the stylesheet's UTF-8 bytes as they
 * appear in the page. Worked out once per look, not on every render.
 */
type Shell = { css: string; styleHash: string; fonts: string[]; cssBytes: Buffer<ArrayBuffer> };

const shellOf = memoBy(
  (a: { ctx: PageEnv["ctx"]; uploadsBase: string | null }) => shellKey(a.ctx, a.uploadsBase),
  ({ ctx, uploadsBase }): Shell => {
    let css = themeCss(ctx);
    const hero = ctx.website.heroImageUrl ? safeCssUrl(ctx.website.heroImageUrl) : null;
    if (hero) css += `.hero{background-image:url("${hero}")}`;
    // An uploaded hero comes in widths: a phone or a laptop loads the one its screen needs.
    const heroSizes = hero ? (ctx.website.heroImageVariants ?? []).filter((v) => safeCssUrl(v.url)).slice(0, -1) : [];
    for (const [i, v] of heroSizes.entries()) {
      const min = i === 0 ? "" : `(min-width:${(heroSizes[i - 1]?.width ?? 0) + 1}px) and `;
      css += `@media ${min}(max-width:${v.width}px){.hero{background-image:url("${v.url}")}}`;
    }
    css = publicUploads(css, uploadsBase);
    return {
      css,
      styleHash: `'sha256-${createHash("sha256").update(css).digest("base64")}'`,
      fonts: [...css.matchAll(/url\((\/_fonts\/[^)]+)\)/g)].map((m) => m[1] ?? ""),
      // The page's addresses pass through publicUploads once more (a no-op on these).
      cssBytes: Buffer.from(publicUploads(css, uploadsBase), "utf8"),
    };
  },
  4_000_000,
  // The stylesheet's characters, its bytes and the fonts' few.
  (shell) => shell.css.length * 2 + 256,
);

/**
 * The shell's key: everything the look is made of. Kept by the website object it was made from,
 * with the customization and uploads base it read: a request's context is made fresh, but its
 * website and customization are the kept row's own objects, never changed (a change is a new row),
 * so a site's requests make the key once and the memo finds it by the same string.
 */
function shellKey(ctx: PageEnv["ctx"], uploadsBase: string | null): string {
  const kept = shellKeys.get(ctx.website);
  if (kept && kept.customization === ctx.customization && kept.uploadsBase === uploadsBase) return kept.key;
  const w = ctx.website;
  const key = JSON.stringify([themeKey(ctx), w.heroImageUrl, w.heroImageVariants, uploadsBase]);
  shellKeys.set(w, { customization: ctx.customization, uploadsBase, key });
  return key;
}
const shellKeys = new WeakMap<
  PageEnv["ctx"]["website"],
  { customization: PageEnv["ctx"]["customization"]; uploadsBase: string | null; key: string }
>();

/** The Content-Security-Policy by its two inputs: a site's pages share one string. */
const cspOf = memoBy(
  (a: { styleHash: string; frameSrc: string }) => `${a.styleHash} ${a.frameSrc}`,
  (a) => csp(a.styleHash, a.frameSrc),
  1_000_000,
  (value) => value.length,
);

/** Text or an attribute value escaped as React escapes it (`escapeTextForBrowser`). */
const ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
export const escapeHtml = (text: string) =>
  /["'&<>]/.test(text) ? text.replace(/["'&<>]/g, (c) => ESCAPES[c] ?? c) : text;

/**
 * The document's head after what React puts first (the charset, the viewport and the preloads it
 * adds for the page's images), as React rendered it from the elements it is made of: built as
 * text, the same bytes, without React's work per element — the head was a fifth of a book page's
 * elements and most of its attributes. Only plain elements, whose values are escaped as React
 * escapes them; no URL here is one React would rewrite (none is a `javascript:` address: they are
 * the site's own and its uploads').
 */
export function headMarkup(env: PageEnv, head: Head, canonical: string, fonts: readonly string[]): string {
  const { ctx } = env;
  const title = escapeHtml(head.title);
  const description = head.description ? escapeHtml(cut(head.description, 160)) : "";
  const image = head.image ? (head.image.startsWith("/") ? `${env.origin}${head.image}` : head.image) : "";
  const img = image ? escapeHtml(image) : "";
  const url = escapeHtml(canonical);
  let h = `<link rel="icon" href="data:,"/><title>${title}</title>`;
  if (description) h += `<meta name="description" content="${description}"/>`;
  h += `<link rel="canonical" href="${url}"/>`;
  // The demo is a public sample whose canonical URL (its tenant host) consolidates it in search;
  // only the owner's private preview is kept out.
  if (env.mode === "preview") h += `<meta name="robots" content="noindex"/>`;
  h += `<meta property="og:type" content="${escapeHtml(head.type ?? "website")}"/><meta property="og:title" content="${title}"/>`;
  if (description) h += `<meta property="og:description" content="${description}"/>`;
  h += `<meta property="og:url" content="${url}"/><meta property="og:site_name" content="${escapeHtml(siteName(ctx))}"/>`;
  if (img) h += `<meta property="og:image" content="${img}"/>`;
  h += `<meta name="twitter:card" content="${img ? "summary_large_image" : "summary"}"/><meta name="twitter:title" content="${title}"/>`;
  if (description) h += `<meta name="twitter:description" content="${description}"/>`;
  if (img) h += `<meta name="twitter:image" content="${img}"/>`;
  if (sectionShown(ctx, "blog"))
    h += `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(`${siteName(ctx)} blog`)}" href="${escapeHtml(href(env, "/rss.xml"))}"/>`;
  for (const font of fonts)
    h += `<link rel="preload" href="${escapeHtml(font)}" as="font" type="font/woff2" crossorigin=""/>`;
  return h;
}

/**
 * Stands for the stylesheet in the rendered markup, which is then sent as the text around it and
 * the stylesheet's kept bytes. Nothing before the stylesheet is raw HTML, and React escapes `<`
 * in text and attributes, so its first occurrence is the stylesheet's place.
 */
const STYLE_MARK = "<bookplate-stylesheet>";
const STYLE_AT = `<style>${STYLE_MARK}`;

/** `before`, then the kept bytes, then `after`, as one UTF-8 body. */
function joinUtf8(before: string, middle: Uint8Array, after: string): Buffer<ArrayBuffer> {
  const a = Buffer.byteLength(before, "utf8");
  const c = Buffer.byteLength(after, "utf8");
  const out = Buffer.allocUnsafeSlow(a + middle.length + c);
  out.write(before, 0, a, "utf8");
  out.set(middle, a);
  out.write(after, a + middle.length, c, "utf8");
  return out;
}

export function renderHtml(env: PageEnv, page: Page, path: string): Out {
  const { origin } = env;
  const canonical = `${origin}${path === "/" ? "/" : path}`;
  const shell = shellOf({ ctx: env.ctx, uploadsBase: env.uploadsBase });
  // React renders the document with only what it puts first in the head (it adds the preloads of
  // the page's images after the viewport); the rest of the head is text (headMarkup), placed
  // before the stylesheet, which goes in as bytes kept for its look.
  const doc = (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the stylesheet goes in below */}
        <style dangerouslySetInnerHTML={{ __html: STYLE_MARK }} />
        {(page.head.jsonLd ?? []).map((j, i) => (
          <script
            // biome-ignore lint/suspicious/noArrayIndexKey: static list
            key={i}
            type="application/ld+json"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with < escaped
            dangerouslySetInnerHTML={{ __html: JSON.stringify(j).replace(/</g, "\\u003c") }}
          />
        ))}
      </head>
      <body>
        <Layout env={env}>{page.body}</Layout>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant, allowed by its hash */}
        <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />
      </body>
    </html>
  );
  const html = renderToStaticMarkup(doc);
  const at = html.indexOf(STYLE_AT);
  if (at < 0) throw new Error("the document lost its stylesheet");
  const head = headMarkup(env, page.head, canonical, shell.fonts);
  const before = publicUploads(`<!doctype html>${html.slice(0, at)}${head}<style>`, env.uploadsBase);
  const after = publicUploads(html.slice(at + STYLE_AT.length), env.uploadsBase);
  return {
    status: page.status,
    // The stylesheet (built from validated colours only) goes in as bytes kept for its look.
    body: joinUtf8(before, shell.cssBytes, after),
    headers: {
      "Content-Type": HTML,
      "Content-Security-Policy": cspOf({
        styleHash: shell.styleHash,
        frameSrc: env.mode === "tenant" ? "'self'" : origin,
      }),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    },
    view: true,
  };
}
