// What a reader gets for confirming while the author offers a free book (ADR 068): the link on
// the confirmation page, and once per reader a welcome mail with the same kind of link, through
// the outbox in the form of every mail to an author's readers (ADR 065): from the site's name,
// answered to the author's proven address, with the one-click unsubscribe link.
import type { Db } from "../../../db/client.ts";
import { MAGNET_DOWNLOADS_PER_READER, MAGNET_LINK_DAYS, type MagnetType } from "../../../shared/schemas/magnet.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Mail, MailSender } from "../mail/mail.service.ts";
import { button, footnote, heading, join, mailParts, paragraph } from "../mail/mail-layout.ts";
import { unsubscribeUrl } from "../mail/unsubscribe.service.ts";
import { contactDeliveryAddress } from "../settings/contact-email.service.ts";
import * as q from "./magnet.queries.ts";
import { magnetToken, magnetUrl } from "./magnet-link.ts";

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
  const token = magnetToken(deps.key, r.userId, reader.id, now);
  const gift = {
    title: magnet.title,
    token,
    link: magnetUrl(r.origin, token),
    type: magnet.contentType as MagnetType,
  };
  if (await q.insertClaim(deps.db, r.userId, reader.id)) {
    const unsubscribe = unsubscribeUrl(deps.key, r.origin, {
      list: "newsletter",
      userId: r.userId,
      subscriberId: reader.id,
    });
    const replyTo = await contactDeliveryAddress(deps.db, r.userId);
    try {
      await deps.mailer.send(welcomeMail(reader.email, gift, { ...r, unsubscribe, replyTo }));
    } catch (err) {
      deps.logger.warn({ err, reqId: r.requestId }, "free book welcome mail failed");
    }
  }
  return gift;
}

function welcomeMail(
  to: string,
  gift: MagnetGift,
  o: { origin: string; siteName: string; unsubscribe: string; replyTo: string | null },
): Mail {
  const subject = `Your free book: ${gift.title}`;
  const host = new URL(o.origin).host;
  const parts = mailParts({
    title: subject,
    preheader: `Thank you for subscribing. Here is ${gift.title}.`,
    body: join(
      heading("Thank you for subscribing"),
      paragraph(`Here is your free copy of ${gift.title}, as promised.`),
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
