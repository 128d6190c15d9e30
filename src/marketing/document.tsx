// The HTML document around every marketing page: the SEO head (title, description, canonical,
// Open Graph, JSON-LD), the stylesheet, and a policy that allows no script at all.
import { createHash } from "node:crypto";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { MarketingAssets } from "./assets.ts";
import { Layout } from "./layout.tsx";

const POLICY = (scriptSrc: string) =>
  [
    "default-src 'none'",
    `script-src ${scriptSrc}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

/** No script at all, unless the page brings its one small inline enhancement (allowed by hash). */
export const MARKETING_CSP = POLICY("'none'");
export function cspFor(page: MarketingPage): string {
  if (!page.script) return MARKETING_CSP;
  return POLICY(`'sha256-${createHash("sha256").update(page.script).digest("base64")}'`);
}

export type MarketingPage = {
  status: number;
  title: string;
  description: string;
  body: ReactElement;
  jsonLd?: unknown[];
  /** Not for search engines (the 404 page). */
  noindex?: boolean;
  /** A small inline enhancement; the page must work without it. */
  script?: string;
};

export type MarketingEnv = { origin: string; assets: MarketingAssets | null };

/** JSON in a <script> element: `<` cannot close it. */
const jsonForScript = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

/** `signedIn`: the header's links for a visitor who is signed in (Layout). */
export function renderMarketing(env: MarketingEnv, page: MarketingPage, path: string, signedIn = false): string {
  const canonical = `${env.origin}${path}`;
  const title = page.title === "Bookplate" ? page.title : `${page.title} · Bookplate`;
  const doc = (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={page.description} />
        {page.noindex ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={canonical} />}
        <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content="Bookplate" />
        <meta property="og:title" content={title} />
        <meta property="og:description" content={page.description} />
        <meta property="og:url" content={canonical} />
        <meta name="twitter:card" content="summary" />
        <meta name="theme-color" content="#4f46e5" />
        {env.assets?.fonts.map((href) => (
          <link key={href} rel="preload" href={href} as="font" type="font/woff2" crossOrigin="anonymous" />
        ))}
        {env.assets ? <link rel="stylesheet" href={env.assets.stylesheet} /> : null}
        {(page.jsonLd ?? []).map((data, i) => (
          <script
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list per page
            key={i}
            type="application/ld+json"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD, escaped for a script element
            dangerouslySetInnerHTML={{ __html: jsonForScript(data) }}
          />
        ))}
      </head>
      <body className="bg-white font-sans text-slate-900 antialiased">
        <Layout path={path} signedIn={signedIn}>
          {page.body}
        </Layout>
        {page.script ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant, allowed by its hash
          <script dangerouslySetInnerHTML={{ __html: page.script }} />
        ) : null}
      </body>
    </html>
  );
  return `<!doctype html>${renderToStaticMarkup(doc)}`;
}
