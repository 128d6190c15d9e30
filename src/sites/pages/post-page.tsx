import type { PostView } from "../../server/modules/sites/sites.service.ts";
import { formatDate } from "../../shared/dates.ts";
import { ArrowLeft } from "../icons.tsx";
import { cleanHtml } from "../sanitize.ts";
import { blogTitles, CATEGORIES } from "./blog-page.tsx";
import { href, type PageEnv } from "./layout.tsx";

/** The first picture of a post (our upload or an https address), for its social card. */
export function firstImageOf(html: string): string | null {
  const src = /<img\b[^>]*?\bsrc="([^"]+)"/i.exec(html)?.[1]?.replace(/&amp;/g, "&");
  return src && /^(https:\/\/|\/uploads\/)/.test(src) ? src : null;
}

/** One post on its own page: /blog/{slug}. */
/** @param html the body made for the page (cleaned, its book cards made); else the post's, cleaned. */
export function PostPage(props: { env: PageEnv; post: PostView; html?: string }) {
  const { env, post } = props;
  const blog = blogTitles(env.ctx);
  const label = CATEGORIES.find((c) => c.key === post.category)?.label ?? post.category;
  const edited = post.updatedAt.getTime() - post.createdAt.getTime() > 60 * 60_000;
  return (
    <div className="wrap">
      <article className="post-page" aria-labelledby="post-title">
        <p className="back">
          <a href={href(env, "/blog")}>
            <ArrowLeft aria-hidden="true" /> {blog.title}
          </a>
        </p>
        <p className="meta">
          <a className="badge" href={href(env, `/blog?category=${post.category}`)}>
            {label}
          </a>
          <time dateTime={post.createdAt.toISOString()}>{formatDate(post.createdAt, "long")}</time>
          {edited && (
            <span className="updated">
              Updated <time dateTime={post.updatedAt.toISOString()}>{formatDate(post.updatedAt, "long")}</time>
            </span>
          )}
        </p>
        <h1 id="post-title">{post.title}</h1>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: props.html ?? cleanHtml(post.content) }} />
        <p className="back end">
          <a href={href(env, "/blog")}>
            <ArrowLeft aria-hidden="true" /> All posts
          </a>
        </p>
      </article>
    </div>
  );
}
