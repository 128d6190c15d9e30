// The System Health panel, from real checks rather than fixed words: a database round trip, the
// mail transport and the outbox's backlog, a write to file storage, when the metrics job last ran,
// and this process. The SMTP check is bounded and runs beside the others (ADR 048).
import type { SystemHealth } from "../../../shared/schemas/admin.ts";
import type { AppDeps } from "../../http/context.ts";
import { STUCK_AFTER_SECONDS } from "../mail/mail.service.ts";
import { staffLatestMetricsRun } from "./admin.service.ts";

/** The daily metrics job runs once a day; a run older than this is late. */
const METRICS_LATE_MS = 26 * 60 * 60 * 1000;

const ms = (start: number) => `${Math.round(performance.now() - start)} ms`;
const age = (seconds: number) =>
  seconds < 120
    ? `${seconds} s`
    : seconds < 7200
      ? `${Math.round(seconds / 60)} min`
      : `${Math.round(seconds / 3600)} h`;
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function systemHealth(deps: Pick<AppDeps, "database" | "mailer" | "storage">): Promise<SystemHealth> {
  const checks: SystemHealth["checks"] = [];
  const smtp = deps.mailer.check();

  let started = performance.now();
  try {
    await deps.database.ping();
    checks.push({
      name: "Database",
      ok: true,
      detail: `${deps.database.kind === "pglite" ? "Embedded PostgreSQL" : "PostgreSQL"} answered in ${ms(started)}`,
    });
  } catch (err) {
    checks.push({ name: "Database", ok: false, detail: `No answer: ${message(err)}` });
  }

  const mail = await smtp;
  checks.push({ name: "Mail", ok: mail.ok, detail: mail.detail });
  try {
    const b = await deps.mailer.backlog();
    checks.push({
      name: "Mail outbox",
      // Waiting mail is normal for a moment; mail that has waited long is not going out.
      ok: b.oldestQueuedSeconds < STUCK_AFTER_SECONDS,
      detail: `${b.queued} waiting${b.queued ? ` (oldest ${age(b.oldestQueuedSeconds)})` : ""}, ${b.failedLastDay} failed in the last 24 hours`,
    });
  } catch (err) {
    checks.push({ name: "Mail outbox", ok: false, detail: `Could not read: ${message(err)}` });
  }

  started = performance.now();
  try {
    await deps.storage.put("health/probe.txt", new TextEncoder().encode("ok"), "text/plain");
    await deps.storage.prune("health", [], 0);
    checks.push({ name: "File storage", ok: true, detail: `Wrote and removed a file in ${ms(started)}` });
  } catch (err) {
    checks.push({ name: "File storage", ok: false, detail: `Not writable: ${message(err)}` });
  }

  try {
    const last = await staffLatestMetricsRun(deps.database.db);
    if (!last) checks.push({ name: "Daily metrics job", ok: true, detail: "Not run yet (runs daily at 00:05 UTC)" });
    else {
      const age = Date.now() - last.getTime();
      checks.push({
        name: "Daily metrics job",
        ok: age < METRICS_LATE_MS,
        detail: `Last run ${last.toISOString().replace("T", " ").slice(0, 16)} UTC`,
      });
    }
  } catch (err) {
    checks.push({ name: "Daily metrics job", ok: false, detail: `Could not read: ${message(err)}` });
  }

  const mem = process.memoryUsage();
  return {
    checks,
    uptimeSeconds: Math.round(process.uptime()),
    memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed },
  };
}
