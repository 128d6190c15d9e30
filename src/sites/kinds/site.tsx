// The site's own page kinds: home, about, blog and posts, privacy, the cookie banner's answer,
// and what crawlers and feed readers ask for (robots.txt, the sitemap, RSS).
import {
  findPost,
  listPosts,
  listVisibleBooks,
  sectionShown,
  sitemapEntries,
} from "../../server/modules/sites/sites.service.ts";
import { notFoundPage, pageKind, personal, plain, under, when } from "../answer.tsx";
import { pageBody } from "../book-cards.tsx";
import { safeCssUrl } from "../document.tsx";
import { robotsTxt, rssXml, sitemapXml } from "../feeds.ts";
import { AboutPage } from "../pages/about-page.tsx";
import { BlogPage, blogTitles } from "../pages/blog-page.tsx";
import { HomePage } from "../pages/home-page.tsx";
import { href, privacyShown } from "../pages/layout.tsx";
import { firstImageOf, PostPage } from "../pages/post-page.tsx";
import { PrivacyPage } from "../pages/privacy-page.tsx";
import { cut, plainText } from "../sanitize.ts";
import { blogCategory } from "../site-request.ts";
import { blogPostingLd, personLd } from "../structured-data.ts";
import { archiveSitemap } from "./archive.tsx";
import { untilReleased } from "./books.tsx";

export const home = pageKind({
  name: "home",
  match: (path) => when(path === "/"),
  async get(a) {
    const { ctx, env } = a;
    const w = ctx.website;
    const books = w.booksEnabled ? await listVisibleBooks(a.db, w.userId, ctx.bookLimit) : [];
    return untilReleased(
      books,
      env.now,
      a.html({
        status: 200,
        head: {
          title: w.websiteTitle?.trim() || a.name,
          description:
            w.tagline ||
            ctx.profile.tagline ||
            plainText(ctx.profile.bio) ||
            `The author website of ${ctx.profile.name}.`,
          image: w.heroImageUrl ? safeCssUrl(w.heroImageUrl) : null,
          jsonLd: [personLd(ctx, env.origin)],
        },
        body: <HomePage env={env} books={books} />,
      }),
    );
  },
});

/** The blog's address before it was the blog. */
export const news = pageKind({
  name: "news (moved to blog)",
  match: (path) => when(path === "/news"),
  get: (a) => plain(301, null, { Location: href(a.env, "/blog") }),
});

export const about = pageKind({
  name: "about",
  match: (path, site) => when(path === "/about" && sectionShown(site.ctx, "about")),
  get: (a) =>
    a.html({
      status: 200,
      head: {
        title: `About | ${a.name}`,
        description: plainText(a.ctx.profile.bio),
        image: a.ctx.profile.authorPhotoUrl,
        type: "profile",
        jsonLd: [personLd(a.ctx, a.env.origin)],
      },
      body: <AboutPage env={a.env} />,
    }),
});

export const blog = pageKind({
  name: "blog",
  match: (path, site) => when(path === "/blog" && sectionShown(site.ctx, "blog")),
  async get(a) {
    const { ctx, env } = a;
    const category = blogCategory(a.c);
    const posts = await listPosts(a.db, ctx.website.userId);
    const t = blogTitles(ctx);
    const shown = category ? posts.filter((p) => p.category === category) : posts;
    return a.html({
      status: 200,
      head: {
        title: `${t.title} | ${a.name}`,
        description: t.description,
        jsonLd: shown.slice(0, 20).map((p) => blogPostingLd(p, ctx, env.origin)),
      },
      body: <BlogPage env={env} posts={posts} category={category} />,
    });
  },
});

export const post = pageKind({
  name: "blog post",
  match: (path, site) => under(path, "/blog/", site.ctx.website.newsEnabled, "slug"),
  async get(a, { slug }) {
    const { ctx, env } = a;
    const found = await findPost(a.db, ctx.website.userId, slug);
    if (found && "movedTo" in found) return plain(301, null, { Location: href(env, `/blog/${found.movedTo}`) });
    if (!found) return notFoundPage(env, "post");
    const p = found.post;
    const html = await pageBody(a.db, env, p.content);
    return a.html({
      status: 200,
      head: {
        title: `${p.title} | ${a.name}`,
        description: cut(plainText(p.content), 160) || p.title,
        image: firstImageOf(p.content),
        type: "article",
        jsonLd: [blogPostingLd(p, ctx, env.origin)],
      },
      body: <PostPage env={env} post={p} html={html} />,
    });
  },
});

export const privacy = pageKind({
  name: "privacy",
  match: (path, site) => when(path === "/privacy" && privacyShown(site.ctx)),
  get: (a) =>
    a.html({ status: 200, head: { title: `Privacy & Legal | ${a.name}` }, body: <PrivacyPage env={a.env} /> }),
});

/** The cookie banner's choice, without script: stored, then back to the page the reader was on. */
export const cookieConsent = pageKind({
  name: "cookie banner's choice",
  match: (path) => when(path === "/cookie-consent"),
  post(a) {
    const { fields, req } = a;
    const v = fields.choice === "accepted" ? "accepted" : "declined";
    // Back to the page the reader was on, if it is a page of this site (never elsewhere).
    const home = req.basePath || "/";
    const asked = fields.back ?? "";
    const back =
      /^\/(?![/\\])[^\s\\]*$/.test(asked) && (asked === home || asked.startsWith(`${req.basePath}/`)) ? asked : home;
    return personal(
      plain(303, null, { Location: back, "Set-Cookie": `cookie_consent=${v}; Path=/; Max-Age=31536000; SameSite=Lax` }),
    );
  },
});

export const robots = pageKind({
  name: "robots.txt",
  match: (path) => when(path === "/robots.txt"),
  get: (a) => plain(200, robotsTxt(a.req.mode, a.env.origin), { "Content-Type": "text/plain; charset=UTF-8" }),
});

export const sitemap = pageKind({
  name: "sitemap",
  match: (path) => when(path === "/sitemap.xml"),
  async get(a) {
    const { ctx } = a;
    const w = ctx.website;
    const entries = await sitemapEntries(a.db, w.userId, {
      books: w.booksEnabled,
      posts: w.newsEnabled,
      bookLimit: ctx.bookLimit,
    });
    const archive = await archiveSitemap(a.db, ctx);
    return plain(200, sitemapXml(ctx, a.env.origin, entries, archive), {
      "Content-Type": "application/xml; charset=UTF-8",
    });
  },
});

export const rss = pageKind({
  name: "blog feed",
  match: (path, site) => when(path === "/rss.xml" && sectionShown(site.ctx, "blog")),
  get: async (a) =>
    plain(200, rssXml(a.ctx, a.env.origin, a.name, await listPosts(a.db, a.ctx.website.userId)), {
      "Content-Type": "application/rss+xml; charset=UTF-8",
    }),
});
