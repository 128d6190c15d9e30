// One way to run a scheduled job: croner with no overlapping runs, errors logged, and a stop()
// that resolves once a run in progress has finished (the database closes after it).
import { Cron } from "croner";
import type { Logger } from "../lib/logger.ts";

export function scheduleJob(opts: { name: string; pattern: string; logger: Logger; run: () => Promise<void> }) {
  let current: Promise<void> | null = null;
  // No croner `name`: names are process-global, and tests run two servers in one process.
  const job = new Cron(opts.pattern, { protect: true }, async () => {
    current = opts.run().catch((err: unknown) => opts.logger.error({ err }, `${opts.name} job failed`));
    await current;
    current = null;
  });
  return {
    async stop() {
      job.stop();
      await current;
    },
  };
}
