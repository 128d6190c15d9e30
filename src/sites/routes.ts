// Every kind of page a public site answers, in the one order they are asked (ADR 057). A GET or
// HEAD goes to the first kind that matches and has `get`, else to the not-found page; a POST to
// the first that matches and has `post`, else 405. Adding a page is one entry here.
import type { PageKind } from "./answer.tsx";
import { archivedNewsletter, newsletterArchive } from "./kinds/archive.tsx";
import { book, books, releaseAlertSignUp, series, storeLink } from "./kinds/books.tsx";
import { magnetDownload } from "./kinds/magnet.tsx";
import {
  contact,
  newsletter,
  newsletterConfirm,
  newsletterEmbed,
  newsletterLink,
  readOnlyForms,
  releaseAlertConfirm,
  unsubscribe,
} from "./kinds/mail.tsx";
import { about, blog, cookieConsent, home, news, post, privacy, robots, rss, sitemap } from "./kinds/site.tsx";
import type { PageEnv } from "./pages/layout.tsx";

export const PAGE_KINDS: readonly PageKind<unknown>[] = [
  home,
  news,
  books,
  // Before `book`, whose addresses they start with.
  storeLink,
  releaseAlertSignUp,
  book,
  series,
  about,
  blog,
  post,
  // Before the forms it stands for on the demo.
  readOnlyForms,
  contact,
  newsletter,
  newsletterConfirm,
  newsletterEmbed,
  newsletterArchive,
  archivedNewsletter,
  releaseAlertConfirm,
  unsubscribe,
  magnetDownload,
  newsletterLink,
  privacy,
  cookieConsent,
  robots,
  sitemap,
  rss,
];

/** The kind that answers this method at this path of this site, with the params it matched. */
export function pageFor(
  method: "get" | "post",
  path: string,
  site: PageEnv,
): { kind: PageKind<unknown>; params: unknown } | null {
  for (const kind of PAGE_KINDS) {
    if (!kind[method]) continue;
    const params = kind.match(path, site);
    if (params !== null) return { kind, params };
  }
  return null;
}
