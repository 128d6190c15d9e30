// The web archive of sent newsletters (ADR 071): on a site whose author turned it on, the list
// and one page per sent newsletter. Off, both are the one not-found page; only `sent` ones exist.
import type { Db } from "../../db/client.ts";
import { findArchived, listArchive } from "../../server/modules/newsletter/newsletter-archive.service.ts";
import type { SiteContext } from "../../server/modules/sites/sites.service.ts";
import { notFoundPage, pageKind, plain, under, when } from "../answer.tsx";
import { pageBody } from "../book-cards.tsx";
import {
  ARCHIVE_PATH,
  ArchivedNewsletterPage,
  ArchivePage,
  archivedPath,
  archiveShown,
} from "../pages/archive-page.tsx";
import { href } from "../pages/layout.tsx";
import { cut, plainText } from "../sanitize.ts";

export const newsletterArchive = pageKind({
  name: "newsletter archive",
  match: (path, site) => when(path === ARCHIVE_PATH && archiveShown(site.ctx)),
  get: async (a) =>
    a.html({
      status: 200,
      head: {
        title: `Newsletter archive | ${a.name}`,
        description: `The newsletters ${a.ctx.profile.name} has sent, newest first.`,
      },
      body: <ArchivePage env={a.env} entries={await listArchive(a.db, a.ctx.website.userId)} />,
    }),
});

export const archivedNewsletter = pageKind({
  name: "archived newsletter",
  match: (path, site) => under(path, `${ARCHIVE_PATH}/`, archiveShown(site.ctx), "id"),
  async get(a, { id }) {
    const { ctx, env } = a;
    const n = await findArchived(a.db, ctx.website.userId, id);
    if (!n) return notFoundPage(env);
    // Also published on the blog: the post is its one page (ADR 071).
    const at = archivedPath(ctx, n);
    if (at !== a.path) return plain(301, null, { Location: href(env, at) });
    return a.html({
      status: 200,
      head: {
        title: `${n.subject} | ${a.name}`,
        description: cut(plainText(n.content), 160) || n.subject,
        type: "article",
      },
      body: <ArchivedNewsletterPage env={env} newsletter={n} html={await pageBody(a.db, env, n.content)} />,
    });
  },
});

/** The archive's pages for the sitemap: the list, and each newsletter that has no blog post. */
export async function archiveSitemap(db: Db, ctx: SiteContext): Promise<{ path: string; updatedAt?: Date | null }[]> {
  if (!archiveShown(ctx)) return [];
  const own = (await listArchive(db, ctx.website.userId))
    .map((n) => ({ path: archivedPath(ctx, n), updatedAt: n.sentAt }))
    .filter((n) => n.path.startsWith(ARCHIVE_PATH));
  return [{ path: ARCHIVE_PATH }, ...own];
}
