// One way to run a scheduled job: croner with no overlapping runs, errors logged, and a stop()
// that resolves once a run in progress has finished (the database closes after it).
import { Cron } from "croner";
import { statusOf } from "../../shared/api-errors.ts";
import { DomainError } from "../lib/domain-error.ts";
import type { Logger } from "../lib/logger.ts";

/**
 * How a job's failure is logged. A service's refusal (DomainError, ADR 058) is read through the
 * same table as the API's answers: a refusal the API would answer with a 4xx is a warning (the
 * job met a state it may not act on), a 5xx one and anything unexpected are errors.
 */
export function logJobFailure(logger: Logger, name: string, err: unknown) {
  if (err instanceof DomainError && statusOf(err.code) < 500) {
    logger.warn({ err, code: err.code }, `${name} job refused`);
  } else {
    logger.error({ err, ...(err instanceof DomainError ? { code: err.code } : {}) }, `${name} job failed`);
  }
}

export function scheduleJob(opts: {
  name: string;
  pattern: string;
  logger: Logger;
  run: () => Promise<void>;
  /** Also run once now (work that must not wait for the next tick after a start). */
  runAtStart?: boolean;
}) {
  let current: Promise<void> | null = null;
  // No croner `name`: names are process-global, and tests run two servers in one process.
  const job = new Cron(opts.pattern, { protect: true }, async () => {
    current = opts.run().catch((err: unknown) => logJobFailure(opts.logger, opts.name, err));
    await current;
    current = null;
  });
  if (opts.runAtStart) void job.trigger();
  return {
    async stop() {
      job.stop();
      await current;
    },
  };
}
