import type { PostView, SiteContext } from "../../server/modules/sites/sites.service.ts";
import { formatDate } from "../../shared/dates.ts";
import { BLOG_PAGE_DEFAULTS } from "../../shared/schemas/blog-page.ts";
import { cleanHtml, cut, plainText } from "../sanitize.ts";
import { href, type PageEnv } from "./layout.tsx";

export const CATEGORIES = [
  { key: "", label: "All Posts" },
  { key: "news", label: "News" },
  { key: "books", label: "Books" },
  { key: "events", label: "Events" },
  { key: "thoughts", label: "Thoughts" },
];

/** What an empty list says, per filter. */
const EMPTY_BLOG: Record<string, [string, string]> = {
  "": ["No posts yet", "Check back soon for updates."],
  news: ["No news yet", "News and announcements will appear here."],
  books: ["No book posts yet", "Posts about my books will appear here."],
  events: ["No events yet", "Upcoming signings, talks and launches will appear here."],
  thoughts: ["No thoughts yet", "Musings on writing and reading will appear here."],
};

export function blogTitles(ctx: SiteContext) {
  return {
    title: ctx.customization?.blogPageTitle?.trim() || BLOG_PAGE_DEFAULTS.title,
    description: ctx.customization?.blogPageDescription?.trim() || BLOG_PAGE_DEFAULTS.description,
  };
}

export function BlogPage(props: { env: PageEnv; posts: PostView[]; category: string }) {
  const { env, category } = props;
  const posts = category ? props.posts.filter((p) => p.category === category) : props.posts;
  const t = blogTitles(env.ctx);
  const [emptyTitle, emptyText] = EMPTY_BLOG[category] ?? ["No posts yet", "Check back soon for updates."];
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>{t.title}</h1>
        <p>{t.description}</p>
      </div>
      <nav className="filters" aria-label="Categories">
        <ul>
          {CATEGORIES.map((c) => (
            <li key={c.key || "all"}>
              <a
                href={href(env, c.key ? `/blog?category=${c.key}` : "/blog")}
                aria-current={c.key === category ? "page" : undefined}
              >
                {c.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="posts">
        {posts.length === 0 ? (
          <div className="empty">
            <h2>{emptyTitle}</h2>
            <p>{emptyText}</p>
          </div>
        ) : (
          posts.map((p) => {
            const text = plainText(p.content);
            const long = text.length > 100;
            const html = cleanHtml(p.content);
            return (
              <article className="post" key={p.id} id={`post-${p.id}`} aria-labelledby={`t-${p.id}`}>
                <p className="meta">
                  <span className="badge">{CATEGORIES.find((c) => c.key === p.category)?.label ?? p.category}</span>
                  <time dateTime={p.createdAt.toISOString()}>{formatDate(p.createdAt, "long")}</time>
                </p>
                <h2 id={`t-${p.id}`}>
                  <a href={href(env, `/blog/${p.slug}`)}>{p.title}</a>
                </h2>
                {long ? (
                  <div className="wrapd">
                    <details>
                      <summary>
                        <span className="more">Read More...</span>
                        <span className="less">Show Less</span>
                      </summary>
                      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
                      <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
                    </details>
                    <p className="preview">{cut(text, 100)}</p>
                  </div>
                ) : (
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts
                  <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
                )}
              </article>
            );
          })
        )}
      </div>
    </div>
  );
}
