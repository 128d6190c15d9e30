// A reader's message through a site's contact form: checked, rate-limited, kept, and mailed to
// the author when the author has proved the address (ADR 014). The renderer only parses the form
// and shows the answer.
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import type { FormOutcome } from "../../lib/domain-error.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Limiter } from "../../lib/rate-limiter.ts";
import type { MailSender } from "../mail/mail.service.ts";
import { contactDeliveryAddress } from "../settings/contact-email.service.ts";
import * as q from "./contact.queries.ts";

const contactSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(200),
  email: z.email("Please enter a valid email address").max(320),
  subject: z.string().trim().min(1, "Subject is required").max(300),
  message: z.string().trim().min(1, "Message is required").max(5000),
  website: z.string().optional(),
});

export type ContactDeps = { db: Db; mailer: MailSender; logger: Logger; limiter: Limiter };

export type ContactRequest = {
  userId: string;
  antispam: boolean;
  /** The sender's network address, for the per-address limit. */
  clientAddress: string;
  fields: Record<string, string>;
  requestId?: string;
};

/** "sent" covers a bot caught by the honeypot too: it is told the same as a reader. */
export async function receiveContactMessage(deps: ContactDeps, r: ContactRequest): Promise<FormOutcome> {
  const parsed = contactSchema.safeParse(r.fields);
  if (!parsed.success) return { ok: false, code: "validation_failed", error: parsed.error.issues[0]?.message };
  // A filled honeypot is a bot: answer as if sent, keep nothing.
  if (r.antispam && parsed.data.website?.trim()) return { ok: true };
  if (
    r.antispam &&
    (!(await deps.limiter.take(`${r.userId}|ip|${r.clientAddress}`)) ||
      !(await deps.limiter.take(`${r.userId}|from|${parsed.data.email.toLowerCase()}`)))
  ) {
    return { ok: false, code: "rate_limited", error: "Too many messages. Please try again later." };
  }
  const m = {
    name: parsed.data.name,
    email: parsed.data.email,
    subject: parsed.data.subject,
    message: parsed.data.message,
  };
  await q.insertContactMessage(deps.db, r.userId, m);
  // Only to an address whose owner proved it (ADR 014): the author's own verified email, or a
  // contact address that followed our link. Otherwise the message is kept, not mailed.
  const to = await contactDeliveryAddress(deps.db, r.userId);
  try {
    if (to) {
      await deps.mailer.send({
        to,
        subject: `New message from your website: ${m.subject}`,
        text: `From: ${m.name} <${m.email}>\nSubject: ${m.subject}\n\n${m.message}\n`,
        // "Reply" in the author's mail program answers the reader, not our no-reply sender.
        replyTo: { name: m.name, address: m.email },
        // Sent by the site's form, not by the reader: no out-of-office answers it.
        automatic: true,
      });
    }
  } catch (err) {
    deps.logger.warn({ err, reqId: r.requestId }, "contact mail failed");
  }
  return { ok: true };
}
