// Assembling a running server from configuration. Used by main.ts and by the tests, so the
// tests run the same process shape as production.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { type Database, openDatabase } from "../db/client.ts";
import { seedDemo } from "../db/seed/demo.ts";
import type { Env } from "../server/env.ts";
import { startDailyMetrics } from "../server/jobs/daily-metrics.job.ts";
import { startDomainChecks } from "../server/jobs/domain-checks.job.ts";
import { startLaunchDayMails } from "../server/jobs/launches.job.ts";
import { startNewsletterJob } from "../server/jobs/newsletters.job.ts";
import { startScheduler } from "../server/jobs/subscription-expiry.job.ts";
import { createDnsLookup } from "../server/lib/dns.ts";
import { createLogger, type Logger } from "../server/lib/logger.ts";
import { dbRateLimiter } from "../server/lib/rate-limiter.ts";
import { localStorage } from "../server/lib/storage.ts";
import { takeTurns } from "../server/lib/turns.ts";
import { type Auth, createAuth } from "../server/modules/auth/auth.ts";
import type { CurrentUser } from "../server/modules/auth/current-user.ts";
import { followSignedIn, SIGNED_IN_CHANNEL } from "../server/modules/auth/signed-in-cache.ts";
import { makeReleaseAlertCopy } from "../server/modules/books/launches.service.ts";
import { createMailer, type DeliveryOptions, type Mailer } from "../server/modules/mail/mail.service.ts";
import { unsubscribeKeyFrom } from "../server/modules/mail/unsubscribe.service.ts";
import { makeNewsletterCopy } from "../server/modules/newsletter/newsletters.service.ts";
import { type SiteRuntime, startSiteRuntime } from "../sites/runtime.ts";
import { LOOPBACK, loopbackFetch, warmUpRenderer } from "../sites/warm-up.ts";
import { createApp } from "./app.ts";

export type RunningServer = {
  url: string;
  port: number;
  database: Database;
  logger: Logger;
  /** The outbox's sender (tests wait on `mailer.idle()` before asserting a mail never went). */
  mailer: Mailer;
  /** The public sites' page cache and visit counter (tests flush and sweep through it). */
  sites: SiteRuntime;
  /** Better Auth as the app holds it (tests call its server-side API the way our code could). */
  auth: Auth;
  /** What readers' unsubscribe links are signed with (tests make links as the launch-day job does). */
  unsubscribeKey: string;
  /** Every route the app mounted, as Hono lists them (the API contract test reads them). */
  routes: readonly { method: string; path: string }[];
  close(): Promise<void>;
};

/** AUTH_SECRET, or one generated once and kept in DATA_DIR so sessions survive restarts. */
function authSecret(env: Env): string {
  if (env.authSecret) return env.authSecret;
  mkdirSync(env.dataDir, { recursive: true });
  const file = join(env.dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export type StartOptions = {
  /** Use this embedded directory instead of DATA_DIR/pg (tests pass `memory://`). */
  embeddedDir?: string;
  /** Per-window allowance for sign-in and similar endpoints. */
  authRateLimit?: { window: number; max: number };
  /** The outbox sender's waits and retries (tests shorten them). */
  mailDelivery?: Partial<DeliveryOptions>;
  /**
   * Told when the embedded database's thread has stopped by itself (after it is logged): from
   * then on every request that reads the database fails. The process (main.ts) ends, so that its
   * supervisor starts it again.
   */
  onDatabaseLost?: (err: Error) => void;
};

export async function startServer(env: Env, opts: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(env.logLevel);
  const database = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: opts.embeddedDir ?? env.dataDir,
    thread: env.pgliteThread,
    hearOwnNotices: [SIGNED_IN_CHANNEL],
    onConnectionError: (err) => logger.warn({ err }, "database connection lost"),
    onEmbeddedDatabaseLost: (err) => {
      logger.fatal({ err }, "the embedded database stopped");
      opts.onDatabaseLost?.(err);
    },
  });
  let sites: SiteRuntime | undefined;
  let mailer: Mailer | undefined;
  let signedIn: Awaited<ReturnType<typeof followSignedIn<CurrentUser>>> | undefined;
  try {
    await database.migrate();
    // The S3 client (a few MB) is loaded only when a bucket is configured (ADR 037).
    const storage = env.s3
      ? (await import("../server/lib/s3-storage.ts")).s3Storage(env.s3)
      : localStorage(join(env.dataDir, "uploads"));
    if (env.seedDemo && (await seedDemo(database.db, storage))) logger.info("demo author created at /demo");
    const secret = authSecret(env);
    const unsubscribeKey = unsubscribeKeyFrom(secret);
    const siteAddress = { protocol: new URL(env.appOrigin).protocol, sitesDomain: env.sitesDomain };
    mailer = createMailer({
      database,
      smtpUrl: env.smtpUrl,
      from: env.mailFrom,
      logger,
      delivery: { leaseMs: env.mailLeaseMs, bulkPerSecond: env.newsletter.sendRate, ...opts.mailDelivery },
      ...(env.dkim ? { dkim: env.dkim } : {}),
      newsletterCopy: makeNewsletterCopy(database.db, siteAddress, env.mailFrom, unsubscribeKey),
      releaseAlertCopy: makeReleaseAlertCopy(database.db, siteAddress, env.mailFrom, unsubscribeKey),
    });
    signedIn = await followSignedIn<CurrentUser>(database, () =>
      logger.warn("session notices lost with the database link: sessions are read on every request until it is back"),
    );
    const auth = createAuth({
      signedIn: signedIn.cache,
      db: database.db,
      mailer,
      appOrigin: env.appOrigin,
      secret,
      production: env.nodeEnv === "production" || env.appOrigin.startsWith("https:"),
      rateLimit: opts.authRateLimit ?? { window: 60, max: 10 },
    });
    sites = await startSiteRuntime({
      database,
      logger,
      pageCache: env.pageCache ? { maxBytes: env.pageCacheBytes } : false,
      // An eighth of the pages' budget, in characters: a few thousand sites (ADR 040).
      siteContexts: env.siteContextCache ? { maxChars: env.pageCacheBytes / 8 } : false,
    });
    const dns = createDnsLookup(env.dnsServers);
    const { app, answerCached } = createApp({
      env,
      database,
      auth,
      mailer,
      logger,
      storage,
      sites,
      unsubscribeKey,
      visits: sites.visits,
      limits: {
        contactVerifyMail: dbRateLimiter(database.db, "contact-verify-mail", 3, 60 * 60_000),
        availability: dbRateLimiter(database.db, "subdomain-availability", 120, 60_000),
      },
      dns,
      webDist: resolve("dist/web"),
    });
    const appListener = getRequestListener(app.fetch, { hostname: env.host });
    // When the embedded database runs on this thread a request runs to its end once started:
    // requests take turns with the event loop, so that new readers are let in between two of
    // them (ADR 081). On its own thread (the default, ADR 088) a statement waits like I/O.
    const turns = database.holdsEventLoop ? takeTurns() : undefined;
    // A client that sends its request a byte at a time holds a connection and its buffers for
    // as long as we wait: bound the wait (ADR 016). Node checks these on a timer, every 30 s
    // by default, which would let a slow client overstay any short limit by that much.
    const server = createHttpServer(
      {
        headersTimeout: env.http.headersTimeoutS * 1000,
        requestTimeout: env.http.requestTimeoutS * 1000,
        connectionsCheckingInterval: 1000,
        keepAliveTimeout: 5000,
        // Node's default (16 KB), stated: larger headers are refused with 431 before any work.
        maxHeaderSize: 16 * 1024,
      },
      // A cached public page is answered before the app sees the request (ADR 033).
      (req, res) => {
        if (answerCached(req, res)) return;
        if (turns) turns(() => void appListener(req, res));
        else void appListener(req, res);
      },
    );
    const listen = (port: number, host: string) =>
      new Promise<void>((ok, fail) => {
        server.once("error", fail);
        server.listen(port, host, () => {
          server.off("error", fail);
          ok();
        });
      });
    // Before it listens (and so before /healthz answers), the process renders a few real pages
    // over HTTP on a port of its own, on the loopback address only (it is internal): the first
    // readers then meet compiled code and prepared reads, not a cold start (ADR 075).
    if (env.warmUpMs > 0) {
      await listen(0, LOOPBACK);
      const warmed = await warmUpRenderer({
        db: database.db,
        sites,
        sitesDomain: env.sitesDomain,
        fetch: loopbackFetch((server.address() as AddressInfo).port),
        budgetMs: env.warmUpMs,
      });
      await new Promise<void>((ok) => server.close(() => ok()));
      if (warmed.renders > 0) logger.debug(warmed, "renderer warmed");
    }
    await listen(env.port, env.host);
    const port = (server.address() as AddressInfo).port;
    const running = sites;
    const sender = mailer;
    const scheduler = startScheduler({ db: database.db, logger });
    const domainChecks = startDomainChecks({ db: database.db, env, dns, mailer, logger });
    const dailyMetrics = startDailyMetrics({ db: database.db, logger });
    const launchDayMails = startLaunchDayMails({ db: database.db, mailer, logger });
    const newsletterJob = startNewsletterJob({
      db: database.db,
      mailer,
      logger,
      site: siteAddress,
      dailyCap: env.newsletter.dailyCap,
    });
    let closing: Promise<void> | undefined;
    return {
      url: `http://localhost:${port}`,
      port,
      database,
      logger,
      mailer: sender,
      sites: running,
      auth,
      unsubscribeKey,
      routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
      close() {
        closing ??= (async () => {
          // A job run in progress finishes before the database it uses closes.
          const jobsDone = Promise.all([
            scheduler.stop(),
            domainChecks.stop(),
            dailyMetrics.stop(),
            launchDayMails.stop(),
            newsletterJob.stop(),
          ]);
          // The sender stops taking rows now; whatever is queued stays for the next start.
          const mailDone = sender.close();
          // How long each step took, logged once stopped: where a slow shutdown waits (ADR 064).
          const took: Record<string, number> = {};
          let mark = performance.now();
          const step = async (name: string, work: Promise<unknown>) => {
            await work;
            const now = performance.now();
            took[name] = Math.round(now - mark);
            mark = now;
          };
          await step(
            "http",
            new Promise<void>((ok) => {
              server.close(() => ok());
              server.closeAllConnections();
            }),
          );
          // Buffered visit counts are written before the database goes.
          await step("sites", running.close());
          await step("jobs", jobsDone);
          await step("mail", mailDone);
          await signedIn?.stop();
          await step("database", database.close());
          logger.info({ ms: took }, "stopped");
        })();
        return closing;
      },
    };
  } catch (err) {
    await sites?.close().catch(() => {});
    await signedIn?.stop().catch(() => {});
    await mailer?.close().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }
}
