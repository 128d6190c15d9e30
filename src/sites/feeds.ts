// What crawlers and feed readers fetch: robots.txt, the sitemap and the blog's RSS feed.
import {
  type PostView,
  type SiteContext,
  type SitemapEntry,
  sectionShown,
} from "../server/modules/sites/sites.service.ts";
import { bookPath } from "../shared/book-path.ts";
import { blogTitles } from "./pages/blog-page.tsx";
import { privacyShown, type SiteMode } from "./pages/layout.tsx";
import { cut, plainText } from "./sanitize.ts";

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** Only the site's own host is crawled; the app host's previews and the demo are not. */
export function robotsTxt(mode: SiteMode, origin: string): string {
  return mode === "tenant"
    ? `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`
    : "User-agent: *\nDisallow: /\n";
}

/** The site's pages, then its books and posts (sitemapEntries: only those whose pages are on). */
export function sitemapXml(
  ctx: SiteContext,
  origin: string,
  entries: SitemapEntry[],
  /** More of the site's pages (the newsletter archive's, ADR 071). */
  more: { path: string; updatedAt?: Date | null }[] = [],
): string {
  const w = ctx.website;
  const pages = [
    "/",
    ...["/books", "/about", "/blog", "/newsletter", "/contact"].filter((p) => {
      // The menu's rule (ADR 052): an empty section is not offered to crawlers either.
      const on = {
        "/books": sectionShown(ctx, "books"),
        "/about": sectionShown(ctx, "about"),
        "/blog": sectionShown(ctx, "blog"),
        "/newsletter": sectionShown(ctx, "newsletter"),
        "/contact": w.contactEnabled,
      };
      return on[p as keyof typeof on];
    }),
    ...(privacyShown(ctx) ? ["/privacy"] : []),
  ];
  const urls = pages.map((p) => `<url><loc>${xmlEscape(origin + p)}</loc></url>`);
  for (const e of entries) {
    const path =
      e.kind === "book" ? bookPath({ slug: e.key }) : e.kind === "series" ? `/series/${e.key}` : `/blog/${e.key}`;
    urls.push(
      `<url><loc>${xmlEscape(origin + path)}</loc><lastmod>${e.updatedAt.toISOString().slice(0, 10)}</lastmod></url>`,
    );
  }
  for (const m of more) {
    const lastmod = m.updatedAt ? `<lastmod>${m.updatedAt.toISOString().slice(0, 10)}</lastmod>` : "";
    urls.push(`<url><loc>${xmlEscape(origin + m.path)}</loc>${lastmod}</url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`;
}

export function rssXml(ctx: SiteContext, origin: string, name: string, posts: PostView[]): string {
  const items = posts
    .slice(0, 50)
    .map(
      (p) =>
        `<item><title>${xmlEscape(p.title)}</title><link>${xmlEscape(`${origin}/blog/${p.slug}`)}</link><guid isPermaLink="false">${p.id}</guid><pubDate>${p.createdAt.toUTCString()}</pubDate><category>${xmlEscape(p.category)}</category><description>${xmlEscape(cut(plainText(p.content), 300))}</description></item>`,
    )
    .join("");
  const t = blogTitles(ctx);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${xmlEscape(`${t.title} | ${name}`)}</title><link>${xmlEscape(`${origin}/blog`)}</link><atom:link href="${xmlEscape(`${origin}/rss.xml`)}" rel="self" type="application/rss+xml"/><description>${xmlEscape(t.description)}</description><language>en-gb</language>${items}</channel></rss>\n`;
}
