// Every hour: mail the readers waiting for books that are out (issue 17). Hourly rather than at
// midnight only, so a release day is not missed when the servers were down at midnight; a reader
// is told once however often it runs (launches.service).
import type { Db } from "../../db/client.ts";
import type { Logger } from "../lib/logger.ts";
import { type SiteAddress, sendLaunchDayMails } from "../modules/books/launches.service.ts";
import type { MailSender } from "../modules/mail/mail.service.ts";
import { scheduleJob } from "./schedule.ts";

export function startLaunchDayMails(opts: {
  db: Db;
  mailer: MailSender;
  logger: Logger;
  site: SiteAddress;
  unsubscribeKey: string;
  pattern?: string;
}) {
  return scheduleJob({
    name: "launch-day-mails",
    pattern: opts.pattern ?? "10 * * * *",
    logger: opts.logger,
    run: async () => {
      const sent = await sendLaunchDayMails(opts);
      if (sent) opts.logger.info({ sent }, "launch-day mails sent");
    },
  });
}
