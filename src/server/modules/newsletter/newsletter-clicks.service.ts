// Click counting for a newsletter, when its author turns it on (ADR 069). No tracking pixel: only
// a reader who follows a link is counted. When the newsletter goes out each of its web links gets
// a row; each reader's copy is made with those links pointing at `/go/{token}` on the author's
// site, the token signed (HMAC under a key derived from the server's secret, as unsubscribe links
// are). The redirect counts the click and answers 302 to the address stored for that link, never
// to one the request names: a changed, made-up or other site's token is a 404 page.
//
// A distinct reader is a 48-bit slice of an HMAC of the link and the subscriber, made when the
// copy is made and carried in the signed token: the redirect never learns who the reader is, and
// the database holds no subscriber id or address beside a click.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db, Tx } from "../../../db/client.ts";
import * as q from "./newsletter-clicks.queries.ts";

/** Where the redirect lives on every author's site. */
export const CLICK_PATH = "/go/";

/** The key click links are signed with, derived from the unsubscribe key (itself from AUTH_SECRET). */
export const clickKeyFrom = (unsubscribeKey: string) =>
  createHmac("sha256", unsubscribeKey).update("bookplate newsletter click links v1").digest("hex");

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const TOKEN = new RegExp(`^(${UUID})\\.([A-Za-z0-9_-]{8})\\.([A-Za-z0-9_-]{43})$`);

const mac = (key: string, userId: string, linkId: string, reader: string) =>
  createHmac("sha256", key).update(`click\n${userId}\n${linkId}\n${reader}`).digest("base64url");

/** The reader's 48 bits for this link: the same on every copy of them, another for every link. */
export function readerOf(key: string, linkId: string, subscriberId: string): string {
  return createHmac("sha256", key)
    .update(`reader\n${linkId}\n${subscriberId}`)
    .digest()
    .subarray(0, 6)
    .toString("base64url");
}

export function clickToken(key: string, userId: string, linkId: string, reader: string): string {
  return `${linkId}.${reader}.${mac(key, userId, linkId, reader)}`;
}

/** The link and reader this token names on this author's site, or null for one not signed for it. */
export function readClickToken(key: string, userId: string, token: string): { linkId: string; reader: number } | null {
  const m = TOKEN.exec(token);
  if (!m?.[1] || !m[2] || !m[3]) return null;
  const want = Buffer.from(mac(key, userId, m[1], m[2]));
  const got = Buffer.from(m[3]);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  return { linkId: m[1], reader: Buffer.from(m[2], "base64url").readUIntBE(0, 6) };
}

const ANCHOR_HREF = /(<a\b[^>]*?\bhref=")([^"]*)(")/gi;
const isWebLink = (url: string) => /^https?:\/\/\S+$/i.test(url);

const unescapeAttr = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&#x0*27;/gi, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** The web addresses the cleaned HTML links to, each once, in the order they first appear. */
export function webLinksOf(html: string): string[] {
  const urls = [...html.matchAll(ANCHOR_HREF)].map((m) => unescapeAttr(m[2] ?? "")).filter(isWebLink);
  return [...new Set(urls)];
}

/** The HTML with each web link's address replaced by `to(address)` (null: left as it is). */
export function rewriteLinks(html: string, to: (url: string) => string | null): string {
  return html.replace(ANCHOR_HREF, (whole, open: string, href: string, close: string) => {
    const next = to(unescapeAttr(href));
    return next === null ? whole : `${open}${escapeAttr(next)}${close}`;
  });
}

/** Going out: a row for each web link of a newsletter that counts clicks (in the send's transaction). */
export async function addNewsletterLinks(tx: Tx, newsletterId: string, html: string): Promise<void> {
  await q.insertLinks(tx, newsletterId, webLinksOf(html));
}

/** The newsletter's counted links: address → link id. */
export async function newsletterLinkIds(db: Db, newsletterId: string): Promise<Map<string, string>> {
  return new Map((await q.selectLinks(db, newsletterId)).map((l) => [l.url, l.id]));
}

/** A reader's copy of the newsletter's HTML: every counted link through the signed redirect. */
export async function countedLinks(
  db: Db,
  key: string,
  c: { newsletterId: string; userId: string; subscriberId: string; siteOrigin: string; html: string },
): Promise<string> {
  const links = await newsletterLinkIds(db, c.newsletterId);
  return rewriteLinks(c.html, (url) => {
    const id = links.get(url);
    if (!id) return null;
    const token = clickToken(key, c.userId, id, readerOf(key, id, c.subscriberId));
    return `${c.siteOrigin}${CLICK_PATH}${token}`;
  });
}

/**
 * A reader followed a counted link on this author's site: where to send them, or null (nothing
 * counted) for a token not signed for this site or a link no longer there. `count` false (a
 * preview, a bot, a HEAD): where it goes, nothing counted.
 */
export async function followLink(
  db: Db,
  key: string,
  userId: string,
  token: string,
  count: boolean,
): Promise<string | null> {
  const t = readClickToken(key, userId, token);
  if (!t) return null;
  return count ? q.countClick(db, userId, t.linkId, t.reader) : q.selectLinkUrl(db, userId, t.linkId);
}

/** Each link's clicks and readers, in the newsletter's order. */
export const linkFigures = (db: Db, newsletterId: string) => q.selectLinkFigures(db, newsletterId);
