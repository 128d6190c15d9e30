// The forms a public site accepts by POST: the cookie banner's choice, the contact form and the
// newsletter sign-up and confirmation. Here the body is read and the answer rendered; checking,
// limits, storing and mail are the contact and newsletter services'.
import type { Context } from "hono";
import { clientAddress } from "../server/lib/client-address.ts";
import { confirmReleaseAlert, signUpForReleaseAlert } from "../server/modules/books/release-alerts.service.ts";
import { receiveContactMessage } from "../server/modules/contact/contact.service.ts";
import { confirmNewsletterSubscriber, signUpForNewsletter } from "../server/modules/newsletter/newsletter.service.ts";
import { getVisibleBook, type SiteContext, sectionShown } from "../server/modules/sites/sites.service.ts";
import { buyBoxFor } from "./buy-box.ts";
import { readerGroup } from "./delivery/delivery.ts";
import { type Out, type Page, renderHtml } from "./document.tsx";
import { BookPage } from "./pages/book-page.tsx";
import { ContactPage } from "./pages/contact-page.tsx";
import { href, type PageEnv, siteName } from "./pages/layout.tsx";
import { MessagePage } from "./pages/message-page.tsx";
import { INVALID_LINK, NewsletterPage } from "./pages/newsletter-page.tsx";
import { type SiteRequest, type SiteVars, siteOrigin } from "./site-request.ts";

const MAX_FORM_BYTES = 64 * 1024;

export const ALERT_LINK_INVALID = "This confirmation link is not valid. Please ask again on the book's page.";

/** A form body past MAX_FORM_BYTES: the request is answered 413 and the rest is never read. */
class FormTooLarge extends Error {}

/**
 * Reads a public form's body, counting bytes as they arrive: a declared Content-Length over the
 * limit and a chunked body that grows past it are refused alike, and nothing past the limit is
 * ever buffered. Any other unreadable body counts as an empty form.
 */
async function readForm(c: Context<SiteVars>): Promise<Record<string, string>> {
  if (Number(c.req.header("content-length") ?? 0) > MAX_FORM_BYTES) throw new FormTooLarge();
  const stream = c.req.raw.body;
  if (!stream) return {};
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      void reader.cancel().catch(() => {});
      throw new FormTooLarge();
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks);
  const type = c.req.header("content-type") ?? "";
  try {
    if (/^application\/x-www-form-urlencoded/i.test(type)) {
      return Object.fromEntries(new URLSearchParams(bytes.toString("utf8")));
    }
    if (/^multipart\/form-data/i.test(type)) {
      const form = await new Response(bytes, { headers: { "content-type": type } }).formData();
      const out: Record<string, string> = {};
      for (const [k, v] of form) if (typeof v === "string") out[k] = v;
      return out;
    }
  } catch {
    // A malformed body is an empty form: the form's own checks give the reader a message.
  }
  return {};
}

const personal = (out: Out): Out => ({ ...out, personal: true });
const plain = (status: number, body: string | null, headers: Record<string, string> = {}): Out => ({
  status,
  body,
  headers,
});

/** The answer to a POST to a site that exists and is not expired. */
export async function answerForm(c: Context<SiteVars>, req: SiteRequest, ctx: SiteContext, env: PageEnv): Promise<Out> {
  const deps = c.get("deps");
  const db = deps.database.db;
  const { path } = env;
  const w = ctx.website;
  const html = (page: Page) => renderHtml(env, page, path);
  const name = siteName(ctx);
  let fields: Record<string, string>;
  try {
    fields = await readForm(c);
  } catch (err) {
    if (!(err instanceof FormTooLarge)) throw err;
    // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
    return personal(
      plain(413, `The form is too large (limit ${MAX_FORM_BYTES / 1024} KB). Nothing was sent.\n`, {
        "Content-Type": "text/plain; charset=UTF-8",
        Connection: "close",
      }),
    );
  }
  const ip = clientAddress(c, deps.env.trustProxy) ?? "unknown";
  const limits = deps.sites.limits;
  const requestId = c.get("requestId");
  if (path === "/cookie-consent") {
    const b = fields;
    const v = b.choice === "accepted" ? "accepted" : "declined";
    // Back to the page the reader was on, if it is a page of this site (never elsewhere).
    const home = req.basePath || "/";
    const asked = b.back ?? "";
    const back =
      /^\/(?![/\\])[^\s\\]*$/.test(asked) && (asked === home || asked.startsWith(`${req.basePath}/`)) ? asked : home;
    return personal(
      plain(303, null, {
        Location: back,
        "Set-Cookie": `cookie_consent=${v}; Path=/; Max-Age=31536000; SameSite=Lax`,
      }),
    );
  }
  if (env.readOnly && (path === "/contact" || path === "/newsletter" || path === "/newsletter/confirm")) {
    const error = "The demo site is read-only.";
    const body =
      path === "/contact" ? <ContactPage env={env} error={error} /> : <NewsletterPage env={env} error={error} />;
    return personal(html({ status: 403, head: { title: `${name}` }, body }));
  }
  if (path === "/contact" && w.contactEnabled && (ctx.contact?.enableContactForm ?? true)) {
    const outcome = await receiveContactMessage(
      { db, mailer: deps.mailer, logger: deps.logger, limiter: limits.contact },
      { userId: w.userId, antispam: ctx.contact?.antispamEnabled ?? true, clientAddress: ip, fields, requestId },
    );
    const body =
      outcome.status === 200 ? <ContactPage env={env} done /> : <ContactPage env={env} error={outcome.error} />;
    return personal(html({ status: outcome.status, head: { title: `Contact | ${name}` }, body }));
  }
  if (path === "/newsletter" && sectionShown(ctx, "newsletter")) {
    const origin = siteOrigin(c, ctx);
    const outcome = await signUpForNewsletter(
      { db, mailer: deps.mailer, logger: deps.logger, limits },
      {
        userId: w.userId,
        clientAddress: ip,
        fields,
        confirmUrl: (token) => `${origin}/newsletter/confirm?token=${encodeURIComponent(token)}`,
        requestId,
      },
    );
    const body =
      outcome.status === 200 ? <NewsletterPage env={env} done /> : <NewsletterPage env={env} error={outcome.error} />;
    return personal(html({ status: outcome.status, head: { title: `Newsletter | ${name}` }, body }));
  }
  if (path === "/newsletter/confirm" && w.newsletterEnabled) {
    const token = fields.token ?? "";
    const title = `Newsletter | ${name}`;
    if (!(await confirmNewsletterSubscriber(db, w.userId, token))) {
      return personal(
        html({
          status: 404,
          head: { title },
          body: <MessagePage env={env} title="Link not valid" text={INVALID_LINK} />,
        }),
      );
    }
    return personal(
      html({
        status: 200,
        head: { title },
        body: (
          <MessagePage
            env={env}
            title="Subscription confirmed"
            text="Thank you for subscribing! You'll hear from me soon."
          />
        ),
      }),
    );
  }
  // Any address of the book (its slug, an earlier one, or its id, as pages cached before ADR 051 post).
  const alertFor = /^\/book\/([^/]+)\/alert$/.exec(path);
  if (alertFor && w.booksEnabled) {
    const detail = await getVisibleBook(db, w.userId, alertFor[1] ?? "", ctx.bookLimit);
    if (!detail) {
      return personal(
        html({
          status: 404,
          head: { title: `Book Not Found | ${name}` },
          body: (
            <MessagePage
              env={env}
              title="Book Not Found"
              text="The book you are looking for does not exist or is not available."
            />
          ),
        }),
      );
    }
    const b = detail.book;
    const outcome = env.readOnly
      ? ({ status: 403, error: "The demo site is read-only." } as const)
      : await signUpForReleaseAlert(
          { db, mailer: deps.mailer, logger: deps.logger, limits },
          {
            userId: w.userId,
            book: { id: b.id, releaseDate: b.releaseDate },
            clientAddress: ip,
            fields,
            confirmUrl: (token) =>
              `${siteOrigin(c, ctx)}${href(env, "/alerts/confirm")}?token=${encodeURIComponent(token)}`,
            requestId,
          },
        );
    return personal(
      html({
        status: outcome.status,
        head: { title: `${b.title} | ${name}` },
        body: (
          <BookPage
            env={env}
            detail={detail}
            buyBox={buyBoxFor(
              detail,
              readerGroup(c.get("deps").env.countryHeader, (h) => c.req.header(h)),
            )}
            alert={outcome.status === 200 ? { done: true } : { error: outcome.error }}
          />
        ),
      }),
    );
  }
  if (path === "/alerts/confirm" && w.booksEnabled) {
    const title = `Release alert | ${name}`;
    if (!(await confirmReleaseAlert(db, w.userId, fields.token ?? ""))) {
      return personal(
        html({
          status: 404,
          head: { title },
          body: <MessagePage env={env} title="Link not valid" text={ALERT_LINK_INVALID} />,
        }),
      );
    }
    return personal(
      html({
        status: 200,
        head: { title },
        body: (
          <MessagePage
            env={env}
            title="You're on the list"
            text="You'll get one email on the day the book comes out."
          />
        ),
      }),
    );
  }
  return plain(405, "Method not allowed", { "Content-Type": "text/plain; charset=UTF-8", Allow: "GET, HEAD" });
}
