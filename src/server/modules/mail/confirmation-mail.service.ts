// The mail that asks an address to confirm it wants mail from an author's site (a newsletter, a
// release alert; ADR 048). The address has not said yes: nothing anyone typed goes into it, not
// even the site's name (free text an author could make read like anything). The site is named by
// its address, which the link opens anyway.
import type { Logger } from "../../lib/logger.ts";
import type { MailSender } from "./mail.service.ts";

/** Sends the confirmation mail for `link`; a failure is logged (as `failed`), not thrown. */
export async function sendConfirmationMail(
  deps: { mailer: MailSender; logger: Logger },
  m: {
    to: string;
    link: string;
    subject: (site: string) => string;
    text: (site: string) => string;
    failed: string;
    requestId?: string | undefined;
  },
): Promise<void> {
  const site = new URL(m.link).host;
  try {
    await deps.mailer.send({ to: m.to, subject: m.subject(site), text: m.text(site), automatic: true });
  } catch (err) {
    deps.logger.warn({ err, reqId: m.requestId }, m.failed);
  }
}
