// The reader magnet's page kinds (ADR 068): a reader's download link, and what the newsletter's
// confirmation adds when the author offers a free book (the button, and the welcome mail).
import {
  checkMagnetLink,
  contentDisposition,
  downloadMagnet,
  giftOnConfirm,
  isMagnetToken,
  MAGNET_RENEW_ANSWER,
  MAGNET_TERMS,
  renewMagnetLink,
} from "../../server/modules/newsletter/magnet.service.ts";
import { type Answer, type FormAnswer, pageKind, personal, plain, when } from "../answer.tsx";
import { PRIVATE_NO_STORE } from "../delivery/delivery.ts";
import type { Out } from "../document.tsx";
import { MagnetPage } from "../pages/magnet-page.tsx";

const PATH = "/newsletter/free-book";

/** What a link that gives no book says, by why. */
const REFUSED = {
  invalid: {
    status: 404,
    heading: "Link not valid",
    text: "This download link is not valid. Please use the link in the email you received when you subscribed.",
  },
  expired: {
    status: 410,
    heading: "This link has expired",
    text: "Download links work for a limited time. You can have a new one sent to the address this link was sent to.",
  },
  removed: { status: 410, heading: "No longer offered", text: "The author no longer offers this free book." },
  limit: {
    status: 403,
    heading: "Download limit reached",
    text: "This book has been downloaded as many times as one reader may. Write to the author if you need it again.",
  },
} as const;

const page = (a: Answer, status: number, body: Parameters<typeof MagnetPage>[0]): Out => ({
  ...personal(a.html({ status, head: { title: `Free book | ${a.name}` }, body: <MagnetPage {...body} /> })),
  view: false,
});

/** An expired link's page offers a new link, posting the old token back (ADR 068). */
const refused = (a: Answer, why: keyof typeof REFUSED, token?: string) => {
  const r = REFUSED[why];
  return page(a, r.status, {
    env: a.env,
    heading: r.heading,
    text: r.text,
    ...(why === "expired" && token ? { renew: token } : {}),
  });
};

/**
 * A reader's download link, on every site whatever its sections (like the unsubscribe link): the
 * GET shows the book's button and counts nothing; the button's POST counts one download and
 * answers with the file.
 */
export const magnetDownload = pageKind({
  name: "free book download link",
  match: (path) => when(path === PATH),
  async get(a) {
    const token = a.c.req.query("token") ?? "";
    if (!isMagnetToken(token)) return refused(a, "invalid");
    const link = await checkMagnetLink(a.db, a.deps.unsubscribeKey, a.ctx.website.userId, token);
    if (link.status !== "ok") return refused(a, link.status, token);
    return page(a, 200, {
      env: a.env,
      heading: "Your free book",
      text: "Thank you for subscribing! Press the button to download your book.",
      terms: MAGNET_TERMS,
      download: { token, title: link.magnet.title, type: link.magnet.type },
    });
  },
  async post(a) {
    if (a.fields.renew === "1") {
      const { deps } = a;
      const renewed = await renewMagnetLink(
        {
          db: a.db,
          mailer: deps.mailer,
          logger: deps.logger,
          key: deps.unsubscribeKey,
          limits: { ask: deps.sites.limits.magnetRenew, mail: deps.sites.limits.magnetRenewMail },
        },
        {
          userId: a.ctx.website.userId,
          token: a.fields.token ?? "",
          origin: a.env.origin,
          siteName: a.name,
          clientAddress: a.ip,
          requestId: a.requestId,
        },
      );
      return renewed.status === 429
        ? page(a, 429, { env: a.env, heading: "Too many requests", text: "Please try again later." })
        : page(a, 200, { env: a.env, heading: "Check your inbox", text: MAGNET_RENEW_ANSWER });
    }
    const got = await downloadMagnet(
      a.db,
      a.deps.storage,
      a.deps.unsubscribeKey,
      a.ctx.website.userId,
      a.fields.token ?? "",
    );
    if (got.status !== "ok") return refused(a, got.status, a.fields.token);
    return personal({
      ...plain(200, null, {
        "Content-Type": got.type,
        "Content-Disposition": contentDisposition(got.fileName),
        "Cache-Control": PRIVATE_NO_STORE,
        "X-Content-Type-Options": "nosniff",
      }),
      body: new Uint8Array(got.bytes),
    });
  },
});

/** After a newsletter confirmation: with a free book, the page with its button (and the mail goes). */
export async function magnetAfterConfirm(a: FormAnswer, confirmToken: string): Promise<Out | null> {
  const gift = await giftOnConfirm(
    { db: a.db, mailer: a.deps.mailer, logger: a.deps.logger, key: a.deps.unsubscribeKey },
    { userId: a.ctx.website.userId, confirmToken, origin: a.env.origin, siteName: a.name, requestId: a.requestId },
  );
  if (!gift) return null;
  return page(a, 200, {
    env: a.env,
    heading: "Subscription confirmed",
    text: "Thank you for subscribing! Here is your free book. We've also emailed you the link.",
    terms: MAGNET_TERMS,
    download: { token: gift.token, title: gift.title, type: gift.type },
  });
}
