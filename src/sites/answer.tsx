// What a page kind (routes.ts) is given and builds with: one request to a site that exists, the
// answers every kind shares (plain, personal, not found, not allowed) and the one confirm-link
// page that the newsletter and release alerts both mail (ADR 057).
import type { Context } from "hono";
import type { Db } from "../db/client.ts";
import type { FormOutcome } from "../server/lib/domain-error.ts";
import type { SiteContext } from "../server/modules/sites/sites.service.ts";
import { statusOf } from "../shared/api-errors.ts";
import type { CountryGroup } from "../shared/storefronts.ts";
import { type Out, type Page, renderHtml } from "./document.tsx";
import { type PageEnv, siteName } from "./pages/layout.tsx";
import { MessagePage } from "./pages/message-page.tsx";
import { ConfirmSubscription } from "./pages/newsletter-page.tsx";
import type { SiteDeps, SiteRequest, SiteVars } from "./site-request.ts";

/** One GET or HEAD to a site that exists, is not expired and may be shown. */
export type Answer = {
  c: Context<SiteVars>;
  req: SiteRequest;
  ctx: SiteContext;
  env: PageEnv;
  deps: SiteDeps;
  db: Db;
  /** The page path under the site (no base path, no trailing slash). */
  path: string;
  /** The site's name, as page titles end. */
  name: string;
  /** The reader's country group, on pages that differ by it (else ""). */
  group: CountryGroup;
  /** The page in the site's document, with the site's headers. */
  html(page: Page): Out;
};

/** One POST: the request, and the form it carried (read once, before any page kind is asked). */
export type FormAnswer = Answer & { fields: Record<string, string>; ip: string; requestId: string };

/**
 * One kind of page: which paths of which sites it answers, and how it answers a GET (HEAD too)
 * and a POST. The renderer asks the kinds in routes.ts in order; the first whose `match` gives
 * params for a method it answers renders the page. A site with a section off matches nothing
 * there, so the reader gets the one not-found page.
 */
export type PageKind<P = unknown> = {
  name: string;
  /** The path's params when this kind answers `path` on this site, else null. */
  match(path: string, site: PageEnv): P | null;
  get?(a: Answer, params: P): Out | Promise<Out>;
  post?(a: FormAnswer, params: P): Out | Promise<Out>;
};

/** A typed entry of the table: the params `match` gives are the ones `get` and `post` take. */
export const pageKind = <P,>(kind: PageKind<P>): PageKind<P> => kind;

export const plain = (status: number, body: string | null, headers: Record<string, string> = {}): Out => ({
  status,
  body,
  headers,
});

/** Depends on more than the site and the address: never cached or shared. */
export const personal = (out: Out): Out => ({ ...out, personal: true });

/** The status of the page that shows how a reader's form went: a refusal's from its code (ADR 058). */
export const formStatus = (outcome: FormOutcome): number => (outcome.ok ? 200 : statusOf(outcome.code));

/** Any page of the site in its document, with its message and a way home. */
const messagePage = (env: PageEnv, status: number, title: string, heading: string, text: string): Out =>
  renderHtml(env, { status, head: { title }, body: <MessagePage env={env} title={heading} text={text} /> }, env.path);

const MISSING = {
  page: { title: "Page not found", text: "Sorry, the page you were looking for does not exist." },
  book: { title: "Book Not Found", text: "The book you are looking for does not exist or is not available." },
  series: { title: "Series not found", text: "The series you are looking for does not exist or has no books to show." },
  post: { title: "Post not found", text: "The post you are looking for does not exist or has been removed." },
} as const;

/**
 * The one not-found page: a 404 in the site's document, saying what was not found. `title` is for
 * the one older wording kept as it was: the demo's book page says "Book not found".
 */
export function notFoundPage(env: PageEnv, what: keyof typeof MISSING = "page", title?: string): Out {
  const m = MISSING[what];
  const heading = title ?? m.title;
  return messagePage(env, 404, `${heading} | ${siteName(env.ctx)}`, heading, m.text);
}

/** A POST where no page kind takes one. */
export const formNotAllowed = (): Out =>
  plain(405, "Method not allowed", { "Content-Type": "text/plain; charset=UTF-8", Allow: "GET, HEAD" });

/** A mailed confirmation link (newsletter, release alert): what its page says at each step. */
export type ConfirmLink = {
  /** The page's path, where the button posts the token. */
  path: string;
  /** The page's title, before the site's name. */
  title: string;
  /** The link's token has not the shape of one (GET) or confirms nothing (POST). */
  invalid: string;
  /** What the page asks before the reader presses the button (the component's own words if unset). */
  ask?: { heading: string; text: string; button: string };
  /** What it says once confirmed. */
  done: { heading: string; text: string };
};

/**
 * The one confirm-link page. "ask": a button that posts the token, so that a mail scanner following
 * the link confirms nothing; "invalid": 404; "done": confirmed. Always personal (it holds a token);
 * the asking page is no view (the reader has yet to do anything).
 */
export function confirmLinkPage(a: Answer, link: ConfirmLink, step: "ask" | "invalid" | "done", token = ""): Out {
  const title = `${link.title} | ${a.name}`;
  const { env } = a;
  if (step === "invalid") return personal(messagePage(env, 404, title, "Link not valid", link.invalid));
  if (step === "done") return personal(messagePage(env, 200, title, link.done.heading, link.done.text));
  const ask = link.ask ? { action: link.path, ...link.ask } : {};
  return {
    ...a.html({ status: 200, head: { title }, body: <ConfirmSubscription env={env} token={token} {...ask} /> }),
    personal: true,
    view: false,
  };
}

/** A kind's `match` for a path without params: `{}` when it answers, else null. */
export const when = (answers: boolean): object | null => (answers ? {} : null);

/**
 * A kind's `match` for a path under a section (`/blog/<slug>`): the rest of the path as the param
 * `key` where the site shows that section, else null.
 */
export function under<K extends string>(
  path: string,
  prefix: string,
  shown: boolean,
  key: K,
): { [k in K]: string } | null {
  return path.startsWith(prefix) && shown ? ({ [key]: path.slice(prefix.length) } as { [k in K]: string }) : null;
}
