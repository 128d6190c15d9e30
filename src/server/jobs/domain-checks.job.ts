// Every few minutes: pending custom domains are checked (every 10 minutes for 72 hours after they
// were added) and verified ones daily; the author gets one mail when a domain becomes verified
// and one when it stops reaching us. Each claim is taken by one process (an atomic update stamps
// it checked), and no transaction is open while DNS answers.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { user } from "../../db/schema/index.ts";
import type { DomainCheck } from "../../shared/schemas/domain.ts";
import type { DnsLookup } from "../lib/dns.ts";
import type { Logger } from "../lib/logger.ts";
import { type DomainEnv, recheckDomains } from "../modules/domains/domains.service.ts";
import type { MailSender } from "../modules/mail/mail.service.ts";
import { scheduleJob } from "./schedule.ts";

let running = false;

export type DomainJobDeps = { db: Db; env: DomainEnv; dns: DnsLookup; mailer: MailSender };

function mailFor(env: DomainEnv, domain: string, change: "verified" | "lost", check: DomainCheck) {
  const dashboard = `${env.appOrigin}/dashboard/domain`;
  if (change === "verified") {
    return {
      subject: `${domain} is connected to your site`,
      text: `Good news: ${domain} now points to your Bookplate site, and readers can reach it at https://${domain}.\n\nYour free address now sends visitors there too.\n\n${dashboard}\n`,
    };
  }
  return {
    subject: `${domain} no longer reaches your site`,
    text: `We checked ${domain} today and it no longer points to your Bookplate site:\n\n${check.message}\n\nYour site is back on its free address until this is fixed. The records to add are in your dashboard:\n${dashboard}\n`,
  };
}

/** One run of the job, callable directly (tests). */
export async function runDomainChecks(deps: DomainJobDeps, now = new Date()) {
  if (running) return { skipped: true } as const;
  running = true;
  try {
    return await recheckDomains(
      deps.db,
      deps.env,
      deps.dns,
      async (userId, domain, change, check) => {
        const [owner] = await deps.db.select({ email: user.email }).from(user).where(eq(user.id, userId));
        if (owner)
          await deps.mailer.send({ to: owner.email, ...mailFor(deps.env, domain, change, check), automatic: true });
      },
      now,
    );
  } finally {
    running = false;
  }
}

export function startDomainChecks(deps: DomainJobDeps & { logger: Logger }, pattern = "*/5 * * * *") {
  return scheduleJob({
    name: "domain-checks",
    pattern,
    logger: deps.logger,
    run: async () => {
      const r = await runDomainChecks(deps);
      if (!("skipped" in r) && r.verified + r.lost > 0) deps.logger.info(r, "custom domains re-checked");
    },
  });
}
