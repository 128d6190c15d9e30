// A reader magnet (ADR 068): the free book an author gives readers for confirming their newsletter
// subscription. The author uploads one EPUB or PDF (checked by its content, at most 20 MB), names
// it for the offer, replaces or removes it and sees downloads per day. A reader who confirms gets
// a signed link (magnet-link.ts) on the confirmation page and in one welcome mail; the link works
// for 7 days and the file can be downloaded 5 times per reader, counted per day for the author.
import { randomUUID } from "node:crypto";
import type { Db } from "../../../db/client.ts";
import {
  MAGNET_DOWNLOADS_PER_READER,
  MAGNET_MESSAGES,
  MAGNET_STATS_DAYS,
  type Magnet,
  type MagnetState,
  type MagnetType,
} from "../../../shared/schemas/magnet.ts";
import { notFoundError } from "../../lib/domain-error.ts";
import { safeSegment } from "../../lib/images.ts";
import type { Storage } from "../../lib/storage.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./magnet.queries.ts";
import { downloadName, extensionOf, magnetTypeOf } from "./magnet-file.ts";
import { readMagnetToken } from "./magnet-link.ts";

/** The storage folder of an account's free book (never served at /uploads: app.ts refuses it). */
export const magnetDir = (userId: string) => `magnets/${safeSegment(userId)}`;
export const MAGNET_STORAGE_PREFIX = "magnets/";

const DAY_MS = 24 * 60 * 60_000;
/** A file stored by an upload still on its way to the database is not pruned by another. */
const PRUNE_GRACE_MS = 60_000;

const magnetOf = (row: q.MagnetRow): Magnet => ({
  title: row.title,
  fileName: row.fileName,
  size: row.size,
  type: row.contentType as MagnetType,
  updatedAt: row.updatedAt.toISOString(),
});

const notFound = () => notFoundError(MAGNET_MESSAGES.notFound);

/** The author's free book (or none) and its downloads per day over the last 30 days. */
export async function getMagnetState(db: Db, userId: string, now = new Date()): Promise<MagnetState> {
  const row = await q.selectMagnet(db, userId);
  const days = Array.from({ length: MAGNET_STATS_DAYS }, (_, i) =>
    new Date(now.getTime() - (MAGNET_STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const counted = new Map((await q.selectDownloadDays(db, userId, days[0] ?? "")).map((d) => [d.date, d.count]));
  const downloads = days.map((date) => ({ date, count: counted.get(date) ?? 0 }));
  return {
    magnet: row ? magnetOf(row) : null,
    downloads,
    total: downloads.reduce((sum, d) => sum + d.count, 0),
  };
}

/**
 * Stores the uploaded book and makes it the account's free book (a first upload is titled after
 * its file name). Judged before anything is stored: a file that is not a book changes nothing.
 */
export async function setMagnetFile(
  db: Db,
  storage: Storage,
  userId: string,
  file: { bytes: Uint8Array; name: string },
): Promise<Magnet> {
  const type = magnetTypeOf(file.bytes);
  const fileName = downloadName(file.name, type);
  const storageKey = `${magnetDir(userId)}/${randomUUID()}${extensionOf(type)}`;
  await storage.put(storageKey, file.bytes, type);
  const row = await db.transaction(async (tx) => {
    await markSiteChanged(tx, userId);
    const title = fileName.replace(/\.(pdf|epub)$/, "").replace(/[-_]+/g, " ");
    return q.upsertMagnetFile(tx, userId, { title, fileName, size: file.bytes.length, contentType: type, storageKey });
  });
  await pruneMagnetFiles(storage, userId, row.storageKey, PRUNE_GRACE_MS);
  return magnetOf(row);
}

export async function setMagnetTitle(db: Db, userId: string, title: string): Promise<Magnet> {
  const row = await db.transaction(async (tx) => {
    const updated = await q.updateMagnetTitle(tx, userId, title);
    if (updated) await markSiteChanged(tx, userId);
    return updated;
  });
  if (!row) throw notFound();
  return magnetOf(row);
}

/** No more offer; links already mailed answer that the book was removed. */
export async function removeMagnet(db: Db, storage: Storage, userId: string): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const gone = await q.deleteMagnet(tx, userId);
    if (gone) await markSiteChanged(tx, userId);
    return gone;
  });
  if (!removed) throw notFound();
  await pruneMagnetFiles(storage, userId, null, 0);
}

/** Removes the account's stored books other than `keep`; a failure is left for the next upload. */
async function pruneMagnetFiles(storage: Storage, userId: string, keep: string | null, graceMs: number) {
  try {
    await storage.prune(magnetDir(userId), keep ? [`/uploads/${keep}`] : [], graceMs);
  } catch {
    // An old file left behind is never served (the folder is not public) and goes with the next prune.
  }
}

export type MagnetLinkState =
  | { status: "invalid" | "expired" | "removed" }
  | { status: "ok"; subscriberId: string; magnet: q.MagnetRow & { type: MagnetType } };

/** What a reader's link is worth on this site now, without counting a download. */
export async function checkMagnetLink(
  db: Db,
  key: string,
  userId: string,
  token: string,
  now = new Date(),
): Promise<MagnetLinkState> {
  const link = readMagnetToken(key, userId, token, now);
  if (!link) return { status: "invalid" };
  if (link.expired) return { status: "expired" };
  const magnet = await q.selectMagnet(db, userId);
  if (!magnet) return { status: "removed" };
  // A reader who unsubscribed (or was removed) since has no list's gift left.
  if (!(await q.selectConfirmedSubscriber(db, userId, { id: link.subscriberId }))) return { status: "invalid" };
  return {
    status: "ok",
    subscriberId: link.subscriberId,
    magnet: { ...magnet, type: magnet.contentType as MagnetType },
  };
}

export type MagnetDownload =
  | { status: "invalid" | "expired" | "removed" | "limit" }
  | { status: "ok"; bytes: Uint8Array; fileName: string; type: MagnetType };

/** One download by a reader's link: counted (per reader, per day) before the file is read. */
export async function downloadMagnet(
  db: Db,
  storage: Pick<Storage, "read">,
  key: string,
  userId: string,
  token: string,
  now = new Date(),
): Promise<MagnetDownload> {
  const link = await checkMagnetLink(db, key, userId, token, now);
  if (link.status !== "ok") return link;
  const counted = await db.transaction((tx) =>
    q.countDownload(tx, userId, link.subscriberId, MAGNET_DOWNLOADS_PER_READER, now.toISOString().slice(0, 10)),
  );
  if (!counted) return { status: "limit" };
  const m = link.magnet;
  return { status: "ok", bytes: await storage.read(m.storageKey), fileName: m.fileName, type: m.type };
}

export { contentDisposition } from "./magnet-file.ts";
export { isMagnetToken } from "./magnet-link.ts";
export {
  type GiftRequest,
  giftOnConfirm,
  MAGNET_RENEW_ANSWER,
  MAGNET_TERMS,
  type MagnetGift,
  renewMagnetLink,
} from "./magnet-mail.ts";
