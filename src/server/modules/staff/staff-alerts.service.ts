// Telling staff about something only a person can fix (a payment we could not book, say). Each
// alert is logged at error level and mailed to every admin and super admin.
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { user } from "../../../db/schema/index.ts";
import type { Logger } from "../../lib/logger.ts";
import type { MailSender } from "../mail/mail.service.ts";

export type StaffAlert = { subject: string; text: string };

export async function alertStaff(deps: { db: Db; mailer: MailSender; logger: Logger }, alert: StaffAlert) {
  const staff = await deps.db
    .select({ email: user.email })
    .from(user)
    .where(inArray(user.role, ["admin", "super_admin"]));
  deps.logger.error({ alert: alert.subject, detail: alert.text, staff: staff.length }, "staff alert");
  if (staff.length === 0) {
    deps.logger.warn("no admin account to alert: grant one with `npm run admin -- grant you@example.com`");
  }
  for (const { email } of staff) {
    try {
      await deps.mailer.send({
        to: email,
        subject: `[Bookplate alert] ${alert.subject}`,
        text: alert.text,
        automatic: true,
      });
    } catch (err) {
      deps.logger.error({ err, to: email }, "staff alert mail failed");
    }
  }
}
