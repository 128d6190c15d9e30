// Every 10 seconds, in every process: scheduled newsletters whose time came go out, and those with
// no copy left waiting are marked sent (issue 32, ADR 066). Each newsletter is taken with SKIP
// LOCKED, so of several processes one sends it; the copies themselves go through the outbox.
import { type NewsletterDeps, runNewsletterJob } from "../modules/newsletter/newsletters.service.ts";
import { scheduleJob } from "./schedule.ts";

export function startNewsletterJob(deps: NewsletterDeps, pattern = "*/10 * * * * *") {
  return scheduleJob({
    name: "newsletters",
    pattern,
    logger: deps.logger,
    run: async () => {
      const { started, finished } = await runNewsletterJob(deps);
      if (started || finished) deps.logger.info({ started, finished }, "newsletters");
    },
  });
}
