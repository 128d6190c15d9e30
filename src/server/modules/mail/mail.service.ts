// Outgoing mail. Every message is recorded in the outbox; with SMTP_URL it is also sent,
// without it the message is logged so a local user can still follow a link in it.
import type { Transporter } from "nodemailer";
import type { Db } from "../../../db/client.ts";
import { mailOutbox } from "../../../db/schema/index.ts";
import type { Logger } from "../../lib/logger.ts";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where "Reply" goes (a reader who wrote through a site's form); the sender stays ours. */
  replyTo?: { name: string; address: string };
};

export type Mailer = {
  send(mail: Mail): Promise<void>;
  /** Whether mail can go out now (the SMTP server answers), for the back office's health panel. */
  check(): Promise<{ ok: boolean; detail: string }>;
  close(): void;
};

export function createMailer(opts: { db: Db; smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  // nodemailer is loaded with the first mail, and only when there is an SMTP server (ADR 037).
  const smtpUrl = opts.smtpUrl;
  let made: Transporter | undefined;
  let making: Promise<Transporter> | undefined;
  const transport = smtpUrl
    ? () =>
        (making ??= import("nodemailer").then((m) => {
          made = m.default.createTransport(smtpUrl);
          return made;
        }))
    : undefined;
  return {
    async send({ replyTo, ...mail }) {
      if (!transport) {
        opts.logger.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          "mail (no SMTP_URL: not sent)",
        );
        await opts.db.insert(mailOutbox).values({ ...mail, status: "logged" });
        return;
      }
      try {
        await (await transport()).sendMail({ from: opts.from, ...mail, ...(replyTo ? { replyTo } : {}) });
        await opts.db.insert(mailOutbox).values({ ...mail, status: "sent" });
      } catch (err) {
        opts.logger.error({ err, to: mail.to, subject: mail.subject }, "mail failed");
        await opts.db.insert(mailOutbox).values({ ...mail, status: "failed", error: String(err) });
        throw err;
      }
    },
    async check() {
      if (!transport) return { ok: true, detail: "No SMTP_URL: mail is kept in the outbox and the log" };
      const started = performance.now();
      try {
        await (await transport()).verify();
        return { ok: true, detail: `SMTP server answered in ${Math.round(performance.now() - started)} ms` };
      } catch (err) {
        return { ok: false, detail: `SMTP server did not answer: ${err instanceof Error ? err.message : String(err)}` };
      }
    },
    close() {
      made?.close();
    },
  };
}
