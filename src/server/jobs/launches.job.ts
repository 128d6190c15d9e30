// Every hour, and once at start-up: queue the mails of the readers waiting for books that are out
// (issue 17, ADR 073). Hourly rather than at midnight only, and at start-up, so a release day is
// neither missed nor late by an hour when the servers were down; a reader is told once however
// often it runs (launches.service).
import type { Db } from "../../db/client.ts";
import type { Logger } from "../lib/logger.ts";
import { sendLaunchDayMails } from "../modules/books/launches.service.ts";
import type { ReleaseAlertQueue } from "../modules/mail/mail.service.ts";
import { scheduleJob } from "./schedule.ts";

export function startLaunchDayMails(opts: { db: Db; mailer: ReleaseAlertQueue; logger: Logger; pattern?: string }) {
  return scheduleJob({
    name: "launch-day-mails",
    pattern: opts.pattern ?? "10 * * * *",
    logger: opts.logger,
    runAtStart: true,
    run: async () => {
      const queued = await sendLaunchDayMails(opts);
      if (queued) opts.logger.info({ queued }, "launch-day mails queued");
    },
  });
}
