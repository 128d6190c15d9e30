// What a reader gets for confirming while the author offers a free book (ADR 068): the link on
// the confirmation page, and once per reader a welcome mail with the same kind of link, through
// the outbox in the form of every mail to an author's readers (ADR 065): from the site's name,
// answered to the author's proven address, with the one-click unsubscribe link.
import type { Db } from "../../../db/client.ts";
import { MAGNET_DOWNLOADS_PER_READER, MAGNET_LINK_DAYS, type MagnetType } from "../../../shared/schemas/magnet.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Limiter } from "../../lib/rate-limiter.ts";
import type { Mail, MailSender } from "../mail/mail.service.ts";
import { button, footnote, heading, join, mailParts, paragraph } from "../mail/mail-layout.ts";
import { unsubscribeUrl } from "../mail/unsubscribe.service.ts";
import { contactDeliveryAddress } from "../settings/contact-email.service.ts";
import * as q from "./magnet.queries.ts";
import { magnetToken, magnetUrl, readMagnetToken } from "./magnet-link.ts";

export type MagnetGift = { title: string; token: string; link: string; type: MagnetType };

export type GiftRequest = {
  userId: string;
  /** The confirmation token the reader just confirmed with. */
  confirmToken: string;
  /** The site's own origin, where the links open. */
  origin: string;
  siteName: string;
  requestId?: string;
};

export const MAGNET_TERMS = `The link works for ${MAGNET_LINK_DAYS} days and for up to ${MAGNET_DOWNLOADS_PER_READER} downloads.`;

/**
 * After a confirmation: null without a free book (nothing changes), else the reader's link. The
 * first confirmation of a reader also queues the welcome mail; confirming again does not.
 */
export async function giftOnConfirm(
  deps: { db: Db; mailer: MailSender; logger: Logger; key: string },
  r: GiftRequest,
  now = new Date(),
): Promise<MagnetGift | null> {
  const magnet = await q.selectMagnet(deps.db, r.userId);
  if (!magnet) return null;
  const reader = await q.selectConfirmedSubscriber(deps.db, r.userId, { confirmToken: r.confirmToken });
  if (!reader) return null;
  const gift = giftFor(deps.key, r, magnet, reader.id, now);
  if (await q.insertClaim(deps.db, r.userId, reader.id)) await mailGift(deps, r, reader, gift, false);
  return gift;
}

/** The reader's link to the free book, signed now. */
function giftFor(
  key: string,
  r: { userId: string; origin: string },
  magnet: { title: string; contentType: string },
  subscriberId: string,
  now: Date,
): MagnetGift {
  const token = magnetToken(key, r.userId, subscriberId, now);
  return { title: magnet.title, token, link: magnetUrl(r.origin, token), type: magnet.contentType as MagnetType };
}

/** Queues the welcome mail (or, `renewed`, the new link's mail); a failure is logged, not thrown. */
async function mailGift(
  deps: { db: Db; mailer: MailSender; logger: Logger; key: string },
  r: { userId: string; origin: string; siteName: string; requestId?: string },
  reader: { id: string; email: string },
  gift: MagnetGift,
  renewed: boolean,
) {
  const unsubscribe = unsubscribeUrl(deps.key, r.origin, {
    list: "newsletter",
    userId: r.userId,
    subscriberId: reader.id,
  });
  const replyTo = await contactDeliveryAddress(deps.db, r.userId);
  try {
    await deps.mailer.send(welcomeMail(reader.email, gift, { ...r, unsubscribe, replyTo, renewed }));
  } catch (err) {
    deps.logger.warn(
      { err, reqId: r.requestId },
      renewed ? "free book new link mail failed" : "free book welcome mail failed",
    );
  }
}

/** What the page says after "Send me a new link", whatever became of the ask (nothing to enumerate). */
export const MAGNET_RENEW_ANSWER =
  "If this link is yours and you are still subscribed, a new link is on its way to the address it was sent to.";

export type MagnetRenewal = {
  userId: string;
  /** The expired link's token, as the reader's page posted it back. */
  token: string;
  origin: string;
  siteName: string;
  clientAddress: string;
  requestId?: string;
};

/**
 * "Send me a new link" on an expired link's page (ADR 068): a fresh link is mailed, through the
 * outbox, only to the still-confirmed subscriber the expired but genuinely signed link belongs
 * to, while the author still offers the book, at most 3 a day per reader. Every other case (a
 * forged or another site's token, a link still good, an unsubscribed reader, no book, the
 * reader's limit) answers the same and sends nothing; only the asker's own address being over
 * its limit answers 429, which says nothing about any reader.
 */
export async function renewMagnetLink(
  deps: { db: Db; mailer: MailSender; logger: Logger; key: string; limits: { ask: Limiter; mail: Limiter } },
  r: MagnetRenewal,
  now = new Date(),
): Promise<{ status: 200 | 429 }> {
  if (!(await deps.limits.ask.take(`${r.userId}|${r.clientAddress}`))) return { status: 429 };
  const link = readMagnetToken(deps.key, r.userId, r.token, now);
  if (!link?.expired) return { status: 200 };
  const magnet = await q.selectMagnet(deps.db, r.userId);
  if (!magnet) return { status: 200 };
  const reader = await q.selectConfirmedSubscriber(deps.db, r.userId, { id: link.subscriberId });
  if (!reader) return { status: 200 };
  if (!(await deps.limits.mail.take(`${r.userId}|${reader.id}`))) return { status: 200 };
  await mailGift(deps, r, reader, giftFor(deps.key, r, magnet, reader.id, now), true);
  return { status: 200 };
}

function welcomeMail(
  to: string,
  gift: MagnetGift,
  o: { origin: string; siteName: string; unsubscribe: string; replyTo: string | null; renewed?: boolean },
): Mail {
  const subject = o.renewed ? `A new link for your free book: ${gift.title}` : `Your free book: ${gift.title}`;
  const host = new URL(o.origin).host;
  const parts = mailParts({
    title: subject,
    preheader: o.renewed
      ? `Here is a new link for ${gift.title}.`
      : `Thank you for subscribing. Here is ${gift.title}.`,
    body: join(
      heading(o.renewed ? "Here is a new link" : "Thank you for subscribing"),
      paragraph(
        o.renewed
          ? `You asked for a new link to your free copy of ${gift.title}.`
          : `Here is your free copy of ${gift.title}, as promised.`,
      ),
      button(gift.link, `Download ${gift.title}`),
      paragraph(MAGNET_TERMS, { muted: true }),
    ),
    footer: footnote([
      `You get this mail because you subscribed to the newsletter at ${host}. `,
      { href: o.unsubscribe, label: "Unsubscribe" },
    ]),
  });
  return {
    to,
    subject,
    ...parts,
    fromName: o.siteName,
    automatic: true,
    listUnsubscribeUrl: o.unsubscribe,
    ...(o.replyTo ? { replyTo: { name: o.siteName, address: o.replyTo } } : {}),
  };
}
