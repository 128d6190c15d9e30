// Outgoing mail (ADR 048). `send` only writes a queued row to the outbox and returns: no request
// waits on SMTP. A sender in every process takes due rows (each row by exactly one process) and
// hands them to the SMTP server with bounded timeouts, retrying temporary failures with back-off.
// Without SMTP_URL a mail is written to the log and kept in the outbox as `logged` (ADR 004), so
// a local user can still follow a link in it.
import type { Database, Db, Tx } from "../../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { createLoopPacer, type PacerOptions } from "./loop-pacer.ts";
import * as q from "./mail.queries.ts";
import {
  type DkimOptions,
  fromAddressOf,
  type Mail,
  type NewsletterCopy,
  type NewsletterQueue,
  outboxRow,
  type ReleaseAlertCopy,
  type ReleaseAlertQueue,
} from "./mail-form.ts";
import { checkSmtp, deadline, isPermanent, lazyTransport, messageOf } from "./smtp-transport.ts";

export type { OutboxBacklog } from "./mail.queries.ts";
export type {
  DkimOptions,
  Mail,
  NewsletterCopy,
  NewsletterQueue,
  ReleaseAlertCopy,
  ReleaseAlertQueue,
} from "./mail-form.ts";

export type Mailer = NewsletterQueue &
  ReleaseAlertQueue & {
    /**
     * Queues the mail and returns at once. Given a transaction, the mail is queued with it: it goes
     * only if that transaction commits.
     */
    send(mail: Mail, tx?: Db | Tx): Promise<void>;
    /** Whether the SMTP server answers, within `checkTimeoutMs`, for the back office's health panel. */
    check(): Promise<{ ok: boolean; detail: string }>;
    /** What waits in the outbox, and what failed in the last day. */
    backlog(): Promise<q.OutboxBacklog>;
    /** Resolves once this process has nothing left that it could send now (tests). */
    idle(): Promise<void>;
    /** Stops taking rows and lets a send in progress finish (for a while: its lease covers the rest). */
    close(): Promise<void>;
  };

/** What a service that mails needs: the queue's front door only. */
export type MailSender = Pick<Mailer, "send">;

export type DeliveryOptions = {
  /** Waits after the 1st, 2nd, … temporary failure; one more attempt than delays, then `failed`. */
  retryDelaysMs: readonly number[];
  /** nodemailer's connection and greeting timeouts; the socket may idle 3×, a whole send 6×. */
  timeoutMs: number;
  /** How long a claimed row is this process's; must outlast a whole send. */
  leaseMs: number;
  /** How often every process looks for due rows besides being woken (retries, other processes). */
  pollMs: number;
  /** The health check's whole wait for the SMTP server. */
  checkTimeoutMs: number;
  /** How long close() waits for sends in progress. */
  closeGraceMs: number;
  /** Newsletter copies each process sends a second at most (NEWSLETTER_SEND_RATE, ADR 066). */
  bulkPerSecond: number;
  /** How the newsletter lane gives way while the event loop is busy (loop-pacer.ts). */
  pacer?: Partial<PacerOptions>;
};

const MINUTE = 60_000;
export const DEFAULT_DELIVERY: DeliveryOptions = {
  retryDelaysMs: [30_000, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, 60 * MINUTE, 2 * 60 * MINUTE, 4 * 60 * MINUTE],
  timeoutMs: 10_000,
  leaseMs: 5 * MINUTE,
  pollMs: 5_000,
  checkTimeoutMs: 2_500,
  closeGraceMs: 5_000,
  bulkPerSecond: 10,
};

/** Rows one round takes; each goes over its own SMTP connection. */
const BATCH = 5;
/** Newsletter rows one claim takes at most (fewer when the rate is lower: a second's worth). */
const BULK_BATCH = 50;
/** A queued mail older than this means mail is not going out. */
export const STUCK_AFTER_SECONDS = 15 * 60;

export function createMailer(opts: {
  database: Database;
  smtpUrl: string | undefined;
  from: string;
  logger: Logger;
  delivery?: Partial<DeliveryOptions>;
  /** Sign every mail with this key (DKIM_*, ADR 065); nodemailer signs as it sends. */
  dkim?: DkimOptions;
  /** Makes a newsletter's copy at send time (the newsletter module's; ADR 066). */
  newsletterCopy?: NewsletterCopy;
  /** Makes a release alert's mail at send time (the launches'; ADR 073). */
  releaseAlertCopy?: ReleaseAlertCopy;
}): Mailer {
  const { database, logger } = opts;
  const db = database.db;
  const o = { ...DEFAULT_DELIVERY, ...opts.delivery };
  const maxAttempts = o.retryDelaysMs.length + 1;
  const smtpUrl = opts.smtpUrl;

  const fromAddress = fromAddressOf(opts.from);

  if (!smtpUrl) {
    return {
      async send(mail, tx) {
        logger.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, "mail (no SMTP_URL: not sent)");
        await q.insertLogged(tx ?? db, outboxRow(mail));
      },
      async queueNewsletter(tx, n) {
        const added = await q.insertNewsletterCopies(tx, { ...n, status: "logged" });
        logger.info({ newsletterId: n.newsletterId, recipients: added }, "newsletter (no SMTP_URL: not sent)");
        return added;
      },
      async queueReleaseAlerts(tx, a) {
        const added = await q.insertReleaseAlertCopies(tx, { ...a, status: "logged" });
        logger.info({ bookId: a.bookId, recipients: added }, "release alerts (no SMTP_URL: not sent)");
        return added;
      },
      async check() {
        return { ok: true, detail: "No SMTP_URL: mail is kept in the outbox and the log" };
      },
      backlog: () => q.selectBacklog(db),
      async idle() {},
      async close() {},
    };
  }

  const transport = lazyTransport(smtpUrl, o.timeoutMs, opts.dkim, {});
  // Newsletters' copies go one after another over one kept connection (a new one every 100 copies):
  // a connection per copy held a process to a few copies a second (bench:newsletter, ADR 066).
  const bulkTransport = lazyTransport(smtpUrl, o.timeoutMs, opts.dkim, {
    pool: true,
    maxConnections: 1,
    maxMessages: 100,
  });

  let stopped = false;

  /**
   * A lane's rounds: `wake` runs one now, or one more after the current one (a burst of wakes
   * costs one round); `running` is the round in progress, if any.
   */
  function rounds(drainLane: () => Promise<void>, what: string) {
    let round: Promise<void> | null = null;
    let wokenMeanwhile = false;
    return {
      running: () => round,
      wake(): void {
        if (stopped) return;
        if (round) {
          wokenMeanwhile = true;
          return;
        }
        round = (async () => {
          do {
            wokenMeanwhile = false;
            await drainLane();
          } while (wokenMeanwhile && !stopped);
        })()
          .catch((err: unknown) => {
            if (!stopped) logger.error({ err }, `mail outbox ${what} round failed`);
          })
          .finally(() => {
            round = null;
          });
      },
    };
  }

  // A whole send must end well inside the row's lease, or another process could take it meanwhile.
  const sendDeadlineMs = Math.min(6 * o.timeoutMs, Math.floor(o.leaseMs / 2));

  /** A release alert's mail, made as it goes (ADR 073); null: not to be sent (skipped). */
  async function releaseAlertCopyOf(alertId: string): Promise<Mail | null> {
    if (!opts.releaseAlertCopy) throw new Error("no release alert renderer");
    return opts.releaseAlertCopy({ alertId });
  }

  async function deliver(claimed: q.OutboxRow): Promise<void> {
    let mail: Mail | null = null;
    try {
      if (claimed.newsletterId !== null && claimed.subscriberId !== null) {
        if (!opts.newsletterCopy) throw new Error("no newsletter renderer");
        mail = await opts.newsletterCopy({ newsletterId: claimed.newsletterId, subscriberId: claimed.subscriberId });
        if (mail === null) {
          await q.markSkipped(db, claimed, "The reader unsubscribed or bounced before it went");
          return;
        }
      } else if (claimed.releaseAlertId !== null) {
        mail = await releaseAlertCopyOf(claimed.releaseAlertId);
        if (mail === null) {
          await q.markSkipped(db, claimed, "The reader unsubscribed or bounced before it went");
          return;
        }
      }
      const t = await (q.isPaced(claimed) ? bulkTransport : transport).get();
      // A newsletter's copy is made now, in the same shape as a queued row; other mail was made when queued.
      const copy = mail ? outboxRow(mail) : null;
      const sent = copy ?? claimed;
      const { html, fromName, headers } = sent;
      const replyTo =
        sent.replyToAddress !== null && sent.replyToAddress !== undefined
          ? { name: sent.replyToName ?? "", address: sent.replyToAddress }
          : undefined;
      await deadline(
        t.sendMail({
          // nodemailer quotes or encodes the name (RFC 2047); it was made one line when queued.
          from: fromName !== null ? { name: fromName, address: fromAddress } : opts.from,
          to: copy?.to ?? claimed.to,
          subject: copy?.subject ?? claimed.subject,
          text: copy?.text ?? claimed.text,
          ...(html !== null ? { html } : {}),
          ...(replyTo ? { replyTo } : {}),
          ...(headers ? { headers } : {}),
          ...(mail?.messageId ? { messageId: mail.messageId } : {}),
        }),
        sendDeadlineMs,
        "Sending",
      );
      // The one statement between the server's 250 and the row being done: nothing else may
      // come before it (ADR 066 on the window left).
      await q.markSent(db, claimed);
    } catch (err) {
      const error = messageOf(err).slice(0, 1000);
      if (isPermanent(err) && claimed.releaseAlertId !== null) {
        logger.warn({ err, releaseAlertId: claimed.releaseAlertId }, "release alert bounced");
        await q.markAlertBounced(db, claimed, error);
      } else if (isPermanent(err) && claimed.subscriberId !== null) {
        logger.warn({ err, newsletterId: claimed.newsletterId, attempts: claimed.attempts }, "newsletter copy bounced");
        await q.markBounced(db, claimed, error);
      } else if (isPermanent(err) || claimed.attempts >= maxAttempts) {
        logger.error({ err, to: claimed.to, subject: claimed.subject, attempts: claimed.attempts }, "mail failed");
        await q.markFailed(db, claimed, error);
      } else {
        const delay = o.retryDelaysMs[claimed.attempts - 1] ?? o.retryDelaysMs.at(-1) ?? MINUTE;
        logger.warn(
          { err, to: claimed.to, attempts: claimed.attempts, retryInMs: delay },
          "mail not sent yet: will retry",
        );
        await q.markRetry(db, claimed, error, delay);
      }
    }
  }

  async function drain(): Promise<void> {
    await q.failAbandoned(db, maxAttempts);
    while (!stopped) {
      const claimed = await q.claimDue(db, BATCH, o.leaseMs, "mail");
      if (claimed.length === 0) return;
      // Different recipients in parallel; one recipient's mails in the order they were queued
      // (of two links mailed to an address, the one that works arrives last).
      const byRecipient = new Map<string, q.OutboxRow[]>();
      for (const c of claimed) byRecipient.set(c.to.toLowerCase(), [...(byRecipient.get(c.to.toLowerCase()) ?? []), c]);
      await Promise.all(
        [...byRecipient.values()].map(async (mails) => {
          for (const c of mails) {
            // Closing: a row not started yet goes back to the queue rather than wait out its lease.
            const step = stopped ? q.release(db, c) : deliver(c);
            await step.catch((err: unknown) => {
              if (!stopped) logger.error({ err }, "mail outbox: a row could not be settled");
            });
          }
        }),
      );
    }
  }

  // Newsletters' copies: one at a time, at most `bulkPerSecond` a second, in a loop of their own,
  // so other mail never waits behind them (ADR 066). One in flight per process also keeps what a
  // kill can leave half-done to one copy. Rows are claimed a batch at a time (one statement for up
  // to a second's worth), and the lane gives way while the loop is busy with other work.
  const bulkGapMs = 1000 / Math.max(0.01, o.bulkPerSecond);
  const bulkBatch = Math.max(1, Math.min(BULK_BATCH, Math.floor(o.bulkPerSecond)));
  const pacer = createLoopPacer(o.pacer);
  let nextBulkAt = 0;
  let lastBulkAt = 0;
  async function drainBulk(): Promise<void> {
    while (!stopped) {
      const claimedAt = Date.now();
      const claimed = await q.claimDue(db, bulkBatch, o.leaseMs, "bulk");
      if (claimed.length === 0) return;
      for (const [i, row] of claimed.entries()) {
        for (;;) {
          const wait = Math.max(nextBulkAt, pacer.nextAt(lastBulkAt)) - Date.now();
          if (wait <= 0 || stopped) break;
          // In steps, so a lane that may go faster again does not sleep out an old wait.
          await new Promise((ok) => setTimeout(ok, Math.min(wait, 250)));
        }
        // Closing, or too little of the lease left for a whole send: the rest go back to the queue
        // (another process could take them meanwhile).
        if (stopped || Date.now() + sendDeadlineMs >= claimedAt + o.leaseMs) {
          for (const rest of claimed.slice(i)) {
            await q.release(db, rest).catch((err: unknown) => {
              if (!stopped) logger.error({ err }, "mail outbox: a newsletter row could not be released");
            });
          }
          break;
        }
        lastBulkAt = Date.now();
        nextBulkAt = lastBulkAt + bulkGapMs;
        await deliver(row).catch((err: unknown) => {
          if (!stopped) logger.error({ err }, "mail outbox: a newsletter row could not be settled");
        });
      }
    }
  }
  const mailLane = rounds(drain, "mail");
  const bulkLane = rounds(drainBulk, "newsletter");
  const wake = () => {
    bulkLane.wake();
    mailLane.wake();
  };

  // NOTIFY wakes the sender of every process (the one that queued may be busy); the poll picks up
  // retries that came due and rows of a process that died, and covers a lost LISTEN.
  const poll = setInterval(wake, o.pollMs);
  poll.unref();
  const listening = database.listen(q.OUTBOX_CHANNEL, wake, { onReconnect: wake }).catch((err: unknown) => {
    logger.warn({ err }, "mail outbox: LISTEN failed, polling only");
    return null;
  });
  // Mail queued before this process started (or left by one that stopped) goes now.
  wake();

  return {
    async send(mail, tx) {
      await q.insertQueued(tx ?? db, outboxRow(mail));
      // Outside a transaction the row is visible now; inside one, NOTIFY wakes us on commit.
      if (!tx) wake();
    },
    // NOTIFY (sent with the rows, delivered on commit) wakes every process's newsletter lane.
    queueNewsletter: (tx, n) => q.insertNewsletterCopies(tx, { ...n, status: "queued" }),
    // The same for one book's release alerts (ADR 073).
    queueReleaseAlerts: (tx, a) => q.insertReleaseAlertCopies(tx, { ...a, status: "queued" }),
    check: () => checkSmtp(smtpUrl, o.checkTimeoutMs),
    backlog: () => q.selectBacklog(db),
    async idle() {
      while (!stopped) {
        const running = [mailLane.running(), bulkLane.running()].filter((r) => r !== null);
        if (running.length > 0) {
          await Promise.all(running);
          continue;
        }
        if (!(await q.hasDue(db))) return;
        wake();
      }
    },
    async close() {
      stopped = true;
      clearInterval(poll);
      pacer.close();
      const unlisten = await listening;
      await unlisten?.().catch(() => {});
      // A send still running after the grace keeps its lease: another start sends the row again.
      const running = [mailLane.running(), bulkLane.running()].filter((r) => r !== null);
      if (running.length > 0) {
        await Promise.race([Promise.all(running), new Promise((ok) => setTimeout(ok, o.closeGraceMs).unref())]);
      }
      transport.close();
      bulkTransport.close();
    },
  };
}
