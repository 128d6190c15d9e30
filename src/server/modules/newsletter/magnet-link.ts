// A reader's download link for the author's free book (ADR 068): `{subscriber id}.{expiry}.{mac}`,
// the expiry in seconds since the epoch and the mac an HMAC-SHA256 of the site owner's id, the
// subscriber id and the expiry under the key the unsubscribe links use (a different first line,
// so no token of one kind is ever one of the other). No column holds links; the owner's id is in
// what is signed, so one site's link does nothing on another site.
import { createHmac, timingSafeEqual } from "node:crypto";
import { MAGNET_LINK_DAYS } from "../../../shared/schemas/magnet.ts";

const DAY_S = 24 * 60 * 60;
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const TOKEN = new RegExp(`^(${UUID})\\.(\\d{1,12})\\.([A-Za-z0-9_-]{43})$`);

export type MagnetLink = { userId: string; subscriberId: string; expires: number };

const mac = (key: string, l: MagnetLink) =>
  createHmac("sha256", key)
    .update(`reader magnet\n${l.userId}\n${l.subscriberId.toLowerCase()}\n${l.expires}`)
    .digest("base64url");

export function magnetToken(key: string, userId: string, subscriberId: string, now = new Date()): string {
  const expires = Math.floor(now.getTime() / 1000) + MAGNET_LINK_DAYS * DAY_S;
  const l = { userId, subscriberId: subscriberId.toLowerCase(), expires };
  return `${l.subscriberId}.${expires}.${mac(key, l)}`;
}

/** The download page of the author's site for a reader's token. */
export const magnetUrl = (siteOrigin: string, token: string) => `${siteOrigin}/newsletter/free-book?token=${token}`;

/** A token of the shape we make (the page shows its button only for one). */
export const isMagnetToken = (token: string) => TOKEN.test(token);

/**
 * What this token is for on this author's site: null when it is not signed for it (forged, or
 * another site's); `expired` when it was but its days are over.
 */
export function readMagnetToken(
  key: string,
  userId: string,
  token: string,
  now = new Date(),
): (MagnetLink & { expired: boolean }) | null {
  const m = TOKEN.exec(token);
  if (!m?.[1] || !m[2] || !m[3]) return null;
  const l: MagnetLink = { userId, subscriberId: m[1], expires: Number(m[2]) };
  const want = Buffer.from(mac(key, l));
  const got = Buffer.from(m[3]);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  return { ...l, expired: now.getTime() / 1000 >= l.expires };
}
