// The web archive of the author's sent newsletters (ADR 071): the list at /newsletter/archive and
// one newsletter at /newsletter/archive/{id}, in the site's theme.

import type { ArchivedNewsletter, ArchiveEntry } from "../../server/modules/newsletter/newsletter-archive.service.ts";
import { type SiteContext, sectionShown } from "../../server/modules/sites/sites.service.ts";
import { formatDate } from "../../shared/dates.ts";
import { ArrowLeft } from "../icons.tsx";
import { href, type PageEnv } from "./layout.tsx";

/** Whether the site has the archive: the author turned it on and the Newsletter section is on. */
export const archiveShown = (ctx: SiteContext) =>
  ctx.website.newsletterEnabled && ctx.customization?.newsletterArchiveEnabled === true;

export const ARCHIVE_PATH = "/newsletter/archive";

/**
 * Where a sent newsletter is read: the blog post it was also published as while the blog is on
 * (ADR 071: one page, no copy), else its own archive page.
 */
export function archivedPath(ctx: SiteContext, n: Pick<ArchiveEntry, "id" | "postSlug">): string {
  return n.postSlug && ctx.website.newsEnabled ? `/blog/${n.postSlug}` : `${ARCHIVE_PATH}/${n.id}`;
}

const Sent = (props: { at: Date | null }) =>
  props.at ? <time dateTime={props.at.toISOString()}>{formatDate(props.at, "long")}</time> : null;

/** The way to the sign-up form, where the site shows the Newsletter page. */
const Subscribe = (props: { env: PageEnv }) =>
  sectionShown(props.env.ctx, "newsletter") ? (
    <p className="back end">
      <a href={href(props.env, "/newsletter")}>Subscribe to the newsletter</a>
    </p>
  ) : null;

export function ArchivePage(props: { env: PageEnv; entries: ArchiveEntry[] }) {
  const { env, entries } = props;
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Newsletter archive</h1>
        <p>Every newsletter I have sent, newest first.</p>
      </div>
      <div className="posts">
        {entries.length === 0 ? (
          <div className="empty">
            <h2>No newsletters yet</h2>
            <p>Newsletters appear here once they have been sent.</p>
          </div>
        ) : (
          <ul className="archive">
            {entries.map((n) => (
              <li className="post" key={n.id}>
                <p className="meta">
                  <Sent at={n.sentAt} />
                </p>
                <h2>
                  <a href={href(env, archivedPath(env.ctx, n))}>{n.subject}</a>
                </h2>
              </li>
            ))}
          </ul>
        )}
      </div>
      <Subscribe env={env} />
    </div>
  );
}

/** One sent newsletter; `html` is its body already cleaned (and its book cards made). */
export function ArchivedNewsletterPage(props: { env: PageEnv; newsletter: ArchivedNewsletter; html: string }) {
  const { env, newsletter: n } = props;
  return (
    <div className="wrap">
      <article className="post-page" aria-labelledby="post-title">
        <p className="back">
          <a href={href(env, ARCHIVE_PATH)}>
            <ArrowLeft aria-hidden="true" /> Newsletter archive
          </a>
        </p>
        <p className="meta">
          <Sent at={n.sentAt} />
        </p>
        <h1 id="post-title">{n.subject}</h1>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: props.html }} />
        <Subscribe env={env} />
      </article>
    </div>
  );
}
