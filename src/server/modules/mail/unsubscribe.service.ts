// Unsubscribe links for mail to an author's readers (ADR 065, RFC 8058). A link's token names the
// list and the subscriber, and carries an HMAC of both and of the site owner's id under a key the
// server derives from its secret: no column holds tokens, a token cannot be guessed or counted
// through, and one site's token does nothing on another site (the owner's id is in what is signed,
// and every query takes it too).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../../../db/client.ts";
import * as q from "./unsubscribe.queries.ts";

/** The lists a reader can leave: an author's newsletter, or their release alerts. */
export type ReaderList = "newsletter" | "alerts";
const LIST_CODE: Record<ReaderList, string> = { newsletter: "n", alerts: "a" };
const CODE_LIST: Record<string, ReaderList> = { n: "newsletter", a: "alerts" };

export type Subscriber = { list: ReaderList; userId: string; subscriberId: string };

/** The key unsubscribe tokens are signed with, derived from the server's secret (AUTH_SECRET). */
export const unsubscribeKeyFrom = (secret: string) =>
  createHmac("sha256", secret).update("bookplate unsubscribe links v1").digest("hex");

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const TOKEN = new RegExp(`^([na])\\.(${UUID})\\.([A-Za-z0-9_-]{43})$`);

const mac = (key: string, s: Subscriber) =>
  createHmac("sha256", key)
    .update(`unsubscribe\n${LIST_CODE[s.list]}\n${s.userId}\n${s.subscriberId.toLowerCase()}`)
    .digest("base64url");

export function unsubscribeToken(key: string, s: Subscriber): string {
  return `${LIST_CODE[s.list]}.${s.subscriberId.toLowerCase()}.${mac(key, s)}`;
}

/** The one-click link, on the author's site: a POST there unsubscribes, a GET shows a button. */
export function unsubscribeUrl(key: string, siteOrigin: string, s: Subscriber): string {
  return `${siteOrigin}/unsubscribe?token=${unsubscribeToken(key, s)}`;
}

/** A token of the shape we make (the page shows its button only for one). */
export const isUnsubscribeToken = (token: string) => TOKEN.test(token);

/** Who this token unsubscribes from this author's list, or null for a token not signed for it. */
export function readUnsubscribeToken(key: string, userId: string, token: string): Subscriber | null {
  const m = TOKEN.exec(token);
  const list = m?.[1] ? CODE_LIST[m[1]] : undefined;
  if (!m?.[2] || !m[3] || !list) return null;
  const s: Subscriber = { list, userId, subscriberId: m[2] };
  const want = Buffer.from(mac(key, s));
  const got = Buffer.from(m[3]);
  return want.length === got.length && timingSafeEqual(want, got) ? s : null;
}

/**
 * Unsubscribes at once; false (nothing changed) for a wrong, forged or other site's token. A
 * token signed for this site whose reader is gone (deleted since) is true: they are on no list.
 */
export async function unsubscribeReader(db: Db, key: string, userId: string, token: string): Promise<boolean> {
  const s = readUnsubscribeToken(key, userId, token);
  if (!s) return false;
  if (s.list === "newsletter") await q.unsubscribeNewsletter(db, userId, s.subscriberId);
  else await q.unsubscribeAlerts(db, userId, s.subscriberId);
  return true;
}
