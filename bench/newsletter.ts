// npm run bench:newsletter — how fast the production server sends one newsletter to many
// confirmed subscribers, against a bare nodemailer loop feeding the same SMTP server in the same
// run, and what the send costs the author's public site meanwhile (issue 32, ADR 066).
//
// 1. Seeds an author (verified account with a password, website, active plan) and
//    BENCH_SUBSCRIBERS confirmed subscribers (10,000 by default) into a fresh embedded database.
// 2. Starts a local SMTP server in a child process of its own: accepts every message at once and
//    counts them per recipient (so duplicates and missed readers can be counted at the end).
// 3. Baseline: a bare nodemailer loop sending as many similar messages to that SMTP server, with
//    the outbox's concurrency (one message at a time over one kept connection, as the newsletter
//    lane sends: ADR 066) and its transport options.
// 4. Starts the production server (NEWSLETTER_SEND_RATE and NEWSLETTER_DAILY_CAP set high), signs
//    the author in and sends a newsletter to every reader with nothing else running: messages per
//    second from the send to the last copy accepted (the unconstrained rate).
// 5. Caches the site's home page and loads it with wrk for BENCH_IDLE_SLICES slices of 5 s while
//    idle; sends a second newsletter and loads the same page in 5 s slices while it goes (at most
//    BENCH_SENDING_SLICES; the rest of its copies then go without load), then idle again. Every
//    slice is printed as it ends, with the load average; peak resident memory (/proc, every
//    250 ms); missed and duplicated copies of both newsletters.
// 6. Writes its section of bench/RESULTS.md, with the command (the knobs set) that made it.
//    BENCH_CPU_PROF=dir runs the server with --cpu-prof, its profile written there when it stops.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { hashPassword } from "better-auth/crypto";
import nodemailer from "nodemailer";
import { openDatabase } from "../src/db/client.ts";
import { account, newsletterSubscribers, profiles, subscriptions, user, websites } from "../src/db/schema/index.ts";
import {
  buildServer,
  ensureWrk,
  freePort,
  get,
  median,
  type Result,
  rssOf,
  startServer,
  stop,
  writeSection,
  wrk,
} from "./lib.ts";

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const IDLE_SLICES = Number(process.env.BENCH_IDLE_SLICES ?? 3);
/** Slices of load while the second newsletter goes, at most; its remaining copies then go without. */
const SENDING_SLICES = Number(process.env.BENCH_SENDING_SLICES ?? 6);
/** The fresh-connection comparison row's messages: a connection each costs ~0.1 s here, so 10,000 would take minutes. */
const FRESH_MESSAGES = Math.min(SUBSCRIBERS, Number(process.env.BENCH_FRESH_MESSAGES ?? 1000));
/** A directory: the server runs with `--cpu-prof` and writes its profile there when it stops. */
const CPU_PROF = process.env.BENCH_CPU_PROF;
const SLICE_SECONDS = 5;
const CONNECTIONS = 32;
/** The send is given up when no copy arrives for this long. */
const STALL_SECONDS = 60;
const AUTHOR = { id: "bench-author", email: "author@bench.invalid", sub: "newsbench", name: "Bench Author" };
const PASSWORD = "correct horse battery";
const reader = (i: number) => `reader-${i}@bench.invalid`;

/** A body like a real newsletter's: a few paragraphs of the post editor's HTML. */
const CONTENT = Array.from(
  { length: 8 },
  (_, i) =>
    `${`<p>Chapter ${i + 1} news: the next book is nearly done, and here is what happened on the way. `.repeat(3)}</p>`,
).join("");

async function seed(dataDir: string) {
  const database = await openDatabase({ dataDir, databaseUrl: "" });
  await database.migrate();
  const db = database.db;
  // Dated a day back, like bench:sites: rows changed within the last minute empty the page cache.
  const old = new Date(Date.now() - 86_400_000);
  await db.insert(user).values({ id: AUTHOR.id, name: AUTHOR.name, email: AUTHOR.email, emailVerified: true });
  await db.insert(account).values({
    id: "bench-author-credential",
    accountId: AUTHOR.id,
    providerId: "credential",
    userId: AUTHOR.id,
    password: await hashPassword(PASSWORD),
  });
  await db
    .insert(profiles)
    .values({ id: AUTHOR.id, name: AUTHOR.name, email: AUTHOR.email, bio: "<p>Writes novels.</p>" });
  await db
    .insert(websites)
    .values({ userId: AUTHOR.id, subdomain: AUTHOR.sub, websiteName: "Bench Books", createdAt: old, updatedAt: old });
  await db
    .insert(subscriptions)
    .values({ userId: AUTHOR.id, tier: "midi", status: "active", createdAt: old, updatedAt: old });
  for (let start = 0; start < SUBSCRIBERS; start += 1000) {
    await db.insert(newsletterSubscribers).values(
      Array.from({ length: Math.min(1000, SUBSCRIBERS - start) }, (_, k) => ({
        userId: AUTHOR.id,
        email: reader(start + k),
        status: "confirmed",
        confirmToken: `bench-token-${start + k}`,
        createdAt: old,
        confirmedAt: old,
        signupPage: "/newsletter",
      })),
    );
  }
  await database.close();
}

// The SMTP server, in a process of its own (neither the server nor the bare loop shares its event
// loop): accepts every message, counts it per recipient; answers the bench over IPC.
const SMTP_CHILD = `
const { SMTPServer } = require("smtp-server");
const counts = new Map();
let total = 0, first = 0, last = 0;
const server = new SMTPServer({
  authOptional: true, disabledCommands: ["STARTTLS"], logger: false, disableReverseLookup: true,
  onData(stream, session, callback) {
    stream.on("data", () => {});
    stream.on("end", () => {
      const now = Date.now();
      if (!first) first = now;
      last = now;
      for (const r of session.envelope.rcptTo) { counts.set(r.address, (counts.get(r.address) || 0) + 1); total++; }
      callback();
    });
  },
});
server.listen(0, "127.0.0.1", () => process.send({ port: server.server.address().port }));
process.on("message", (m) => {
  if (m.reset) { counts.clear(); total = 0; first = 0; last = 0; return process.send({ ok: true }); }
  if (m.check) {
    let missed = 0, duplicates = 0;
    for (let i = 0; i < m.check.n; i++) {
      const c = counts.get(m.check.prefix + i + m.check.suffix) || 0;
      if (c === 0) missed++; else duplicates += c - 1;
    }
    return process.send({ total, distinct: counts.size, missed, duplicates, first, last });
  }
  process.send({ total, first, last });
});
`;

type SmtpState = {
  total: number;
  first: number;
  last: number;
  distinct?: number;
  missed?: number;
  duplicates?: number;
};

function startSmtp() {
  const child = spawn(process.execPath, ["-e", SMTP_CHILD], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let pending: ((m: unknown) => void)[] = [];
  const ready = new Promise<number>((ok, fail) => {
    child.once("message", (m) => ok((m as { port: number }).port));
    child.once("exit", (code) => fail(new Error(`SMTP server exited with ${code}`)));
  });
  child.on("message", (m) => {
    const [next, ...rest] = pending;
    pending = rest;
    next?.(m);
  });
  const ask = (msg: object) =>
    new Promise<SmtpState>((ok) => {
      pending.push(ok as (m: unknown) => void);
      child.send(msg);
    });
  return {
    child,
    ready,
    state: () => ask({}),
    reset: () => ask({ reset: true }),
    check: (prefix: string, suffix: string, n: number) => ask({ check: { prefix, suffix, n } }),
  };
}

/**
 * The baseline (`pooled`): N messages one at a time over one kept connection, a new one every 100
 * (nodemailer's pool), as the newsletter lane sends them; without: a fresh connection each, for
 * comparison (how the lane sent them before).
 */
async function bareLoop(smtpPort: number, prefix: string, pooled: boolean, messages = SUBSCRIBERS) {
  const ms = 10_000;
  const transport = nodemailer.createTransport({
    url: `smtp://127.0.0.1:${smtpPort}`,
    connectionTimeout: ms,
    greetingTimeout: ms,
    socketTimeout: 3 * ms,
    ...(pooled ? { pool: true, maxConnections: 1, maxMessages: 100 } : {}),
  });
  const started = performance.now();
  for (let i = 0; i < messages; i++) {
    await transport.sendMail({
      from: `"${AUTHOR.name}" <noreply@bench.invalid>`,
      to: `${prefix}${i}@bench.invalid`,
      subject: "News from the desk",
      text: CONTENT.replace(/<[^>]+>/g, ""),
      html: `<!doctype html><html><body>${CONTENT}<p><a href="http://x/unsubscribe/${i}">Unsubscribe</a></p></body></html>`,
      headers: { "List-Unsubscribe": `<http://x/unsubscribe/${i}>` },
    });
  }
  transport.close();
  return (performance.now() - started) / 1000;
}

const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

type Slice = Result & { phase: string; sent: number; load: string };

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-newsletter-"));
  ensureWrk();
  buildServer();
  const smtp = startSmtp();
  let server: ChildProcess | undefined;
  try {
    console.log(`seeding an author with ${SUBSCRIBERS} confirmed subscribers…`);
    const seeding = performance.now();
    await seed(dataDir);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const smtpPort = await smtp.ready;

    console.log(`bare nodemailer loop: ${SUBSCRIBERS} messages…`);
    const loadBefore = loadavg();
    const bareSeconds = await bareLoop(smtpPort, "bare-", true);
    const bareCheck = await smtp.check("bare-", "@bench.invalid", SUBSCRIBERS);
    const bareRate = SUBSCRIBERS / bareSeconds;
    console.log(`bare loop: ${bareRate.toFixed(1)} messages/s`, bareCheck);
    await smtp.reset();
    console.log(`bare nodemailer loop, a fresh connection each: ${FRESH_MESSAGES} messages…`);
    const freshSeconds = await bareLoop(smtpPort, "fresh-", false, FRESH_MESSAGES);
    const freshCheck = await smtp.check("fresh-", "@bench.invalid", FRESH_MESSAGES);
    const freshRate = FRESH_MESSAGES / freshSeconds;
    console.log(`fresh-connection loop: ${freshRate.toFixed(1)} messages/s`, freshCheck);
    await smtp.reset();

    const port = await freePort();
    const sendRate = process.env.NEWSLETTER_SEND_RATE ?? "1000";
    const started = await startServer(
      dataDir,
      port,
      {
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        NEWSLETTER_SEND_RATE: sendRate,
        NEWSLETTER_DAILY_CAP: "10000000",
      },
      CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`] : [],
    );
    server = started.child;
    const running = server;
    const app = `localhost:${port}`;
    const origin = `http://${app}`;
    const signIn = await get(port, app, "/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email: AUTHOR.email, password: PASSWORD }),
    });
    const setCookie = signIn.headers["set-cookie"];
    const cookie = (Array.isArray(setCookie) ? setCookie : [])
      .map((c) => c.split(";")[0] ?? "")
      .filter((kv) => !kv.endsWith("="))
      .join("; ");
    if (signIn.status !== 200 || !cookie) throw new Error(`sign-in answered ${signIn.status}: ${signIn.body}`);
    const api = (method: string, path: string, body?: unknown) =>
      get(port, app, path, {
        method,
        headers: { "content-type": "application/json", origin, cookie },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const siteHost = `${AUTHOR.sub}.localhost:${port}`;
    for (let i = 0; i < 3; i++) {
      const home = await get(port, siteHost, "/");
      if (home.status !== 200) throw new Error(`the site's home page answered ${home.status}`);
    }
    const page = await get(port, siteHost, "/");
    const slice = (phase: string, sent: number): Promise<Slice> => {
      const load = loadavg();
      return wrk({
        url: `http://127.0.0.1:${port}/`,
        seconds: SLICE_SECONDS,
        connections: CONNECTIONS,
        headers: { Host: siteHost, "User-Agent": "bench" },
      }).then((r) => ({ ...r, phase, sent, load }));
    };

    let peakRss = rssOf(running);
    const idleRss = peakRss;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssOf(running));
      } catch {
        /* exited */
      }
    }, 250);
    const slices: Slice[] = [];
    const logSlice = (s: Slice) => {
      slices.push(s);
      console.log(
        `slice ${slices.length}: ${s.phase}, ${Math.round(s.rps)} requests/s, p99 ${s.p99} ms, ${s.errors + s.non2xx} errors, ${s.phase.startsWith("sending") ? `${s.sent} copies, ` : ""}load ${s.load}`,
      );
    };

    /** Writes a newsletter and sends it; resolves when it answered. */
    const sendOne = async (subject: string) => {
      const created = await api("POST", "/api/newsletters", { subject, content: CONTENT });
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
      const id = (JSON.parse(created.body.toString()) as { newsletter: { id: string } }).newsletter.id;
      const at = Date.now();
      const sent = await api("POST", `/api/newsletters/${id}/send`, {});
      if (sent.status !== 200) throw new Error(`send answered ${sent.status}: ${sent.body}`);
      return { id, at, answerMs: Date.now() - at };
    };
    /** Polls the SMTP server until every copy came (or none came for STALL_SECONDS); the load average meanwhile. */
    const follow = () => {
      const f = {
        state: { total: 0, first: 0, last: 0 } as SmtpState,
        loads: [] as string[],
        lastProgress: Date.now(),
      };
      let lastTotal = 0;
      const poll = setInterval(async () => {
        f.state = await smtp.state();
        f.loads.push(loadavg());
        if (f.state.total !== lastTotal) {
          lastTotal = f.state.total;
          f.lastProgress = Date.now();
        }
      }, 250);
      return {
        f,
        done: () => f.state.total >= SUBSCRIBERS || Date.now() - f.lastProgress >= STALL_SECONDS * 1000,
        stop: () => clearInterval(poll),
      };
    };
    const finish = async (w: ReturnType<typeof follow>) => {
      while (!w.done()) await sleep(250);
      w.stop();
      // A little longer: any copy sent twice would show now.
      await sleep(3000);
      return smtp.check("reader-", "@bench.invalid", SUBSCRIBERS);
    };

    // 1. Unconstrained: nothing else asks the server for anything while it sends.
    console.log(`unconstrained: a newsletter to ${SUBSCRIBERS} readers, nothing else running…`);
    const loadFree = loadavg();
    const free = await sendOne("News from the desk");
    const freeWatch = follow();
    const freeCheck = await finish(freeWatch);
    const freeSeconds = ((freeCheck.last || Date.now()) - free.at) / 1000;
    const freeRate = freeCheck.total / freeSeconds;
    const freeFigures = (await api("GET", `/api/newsletters/${free.id}/figures`)).body.toString();
    console.log(`unconstrained: ${freeRate.toFixed(1)} messages/s`, freeCheck, freeFigures);
    await smtp.reset();

    // 2. With readers: the cached page loaded while idle, then while a second newsletter goes.
    console.log(`idle: ${IDLE_SLICES} slices of ${SLICE_SECONDS} s…`);
    for (let i = 0; i < IDLE_SLICES; i++) logSlice(await slice("idle", 0));
    const loaded = await sendOne("More news from the desk");
    console.log(`sending under load (the send answered in ${loaded.answerMs} ms)…`);
    const loadedWatch = follow();
    for (let i = 0; i < SENDING_SLICES && !loadedWatch.done(); i++) {
      const before = loadedWatch.f.state.total;
      const s = await slice("sending", 0);
      s.sent = loadedWatch.f.state.total - before;
      // A slice that ended after the last copy is not a slice "while the send runs".
      logSlice(loadedWatch.done() ? { ...s, phase: "sending (finished within)" } : s);
    }
    const copiesUnderLoad = loadedWatch.f.state.total;
    const loadedSeconds = (Date.now() - loaded.at) / 1000;
    console.log(`the rest of the copies, without load…`);
    const loadedCheck = await finish(loadedWatch);
    clearInterval(sampler);
    const loadedFigures = (await api("GET", `/api/newsletters/${loaded.id}/figures`)).body.toString();
    console.log("under load:", loadedCheck, loadedFigures);

    console.log(`after: ${IDLE_SLICES} slices idle again…`);
    for (let i = 0; i < IDLE_SLICES; i++) logSlice(await slice("idle, after", 0));

    // Idle before and after: the machine's other load drifts over a long send.
    const idleRps = median(slices.filter((s) => s.phase.startsWith("idle")).map((s) => s.rps));
    const during = slices.filter((s) => s.phase === "sending");
    const duringRps = during.length ? median(during.map((s) => s.rps)) : Number.NaN;
    const ratio = duringRps / idleRps;
    const r = (x: number) => String(Math.round(x));
    const verdict = (ok: boolean) => (ok ? "met" : "**not met**");
    const loads = [...freeWatch.f.loads, ...loadedWatch.f.loads];
    const knobs = Object.entries(process.env)
      .filter(([k]) => k.startsWith("BENCH_") || k === "NEWSLETTER_SEND_RATE")
      .map(([k, v]) => `${k}=${v} `)
      .sort()
      .join("");
    const lines = [
      "## Newsletter sending (`npm run bench:newsletter`)",
      "",
      `One author with ${SUBSCRIBERS} confirmed subscribers (seeded into a fresh embedded database in ${seedSeconds.toFixed(0)} s), the production server (one process, PGlite, \`NEWSLETTER_SEND_RATE=${sendRate}\`, \`NEWSLETTER_DAILY_CAP=10000000\`) and a local SMTP server (smtp-server, in a process of its own, accepting every message at once and counting it per recipient), on the shared 2-core machine. Baseline: a bare nodemailer loop in the bench's process sending ${SUBSCRIBERS} similar messages (the same ${CONTENT.length}-character body) to that SMTP server with the outbox's concurrency and transport options — one message at a time over one kept connection (a new one every 100), as the newsletter lane sends. The server's figure (unconstrained): from the send (\`POST /api/newsletters/:id/send\` as the signed-in author) to the last copy the SMTP server accepted, with nothing else asking the server for anything. Then the public site: \`wrk -t1 -c${CONNECTIONS}\` on the author's cached home page (${page.body.length} bytes), ${SLICE_SECONDS} s slices while idle, while a second newsletter to the same readers goes (at most ${SENDING_SLICES} slices; the lane gives way to the site while it is busy, ADR 066), and idle again after.`,
      "",
      "| | messages | seconds | messages/s | of bare loop | missed | duplicates |",
      "|---|---:|---:|---:|---:|---:|---:|",
      `| bare nodemailer loop | ${bareCheck.total} | ${bareSeconds.toFixed(1)} | ${bareRate.toFixed(1)} | 100% | ${bareCheck.missed} | ${bareCheck.duplicates} |`,
      `| bare loop, a fresh connection each (how the lane sent before) | ${freshCheck.total} | ${freshSeconds.toFixed(1)} | ${freshRate.toFixed(1)} | ${((freshRate / bareRate) * 100).toFixed(1)}% | ${freshCheck.missed} | ${freshCheck.duplicates} |`,
      `| the server's newsletter, unconstrained | ${freeCheck.total} | ${freeSeconds.toFixed(1)} | ${freeRate.toFixed(1)} | ${((freeRate / bareRate) * 100).toFixed(1)}% | ${freeCheck.missed} | ${freeCheck.duplicates} |`,
      `| the second newsletter, while the site was loaded (${copiesUnderLoad} copies in ${loadedSeconds.toFixed(0)} s of load), then the rest | ${loadedCheck.total} | | ${(copiesUnderLoad / loadedSeconds).toFixed(1)} under load | | ${loadedCheck.missed} | ${loadedCheck.duplicates} |`,
      "",
      `The first send answered in ${free.answerMs} ms (every copy queued in that transaction); its first copy arrived ${r((freeCheck.first || Number.NaN) - free.at)} ms after the send. Figures afterwards: \`${freeFigures}\`; the second's: \`${loadedFigures}\`. Resident memory of the server: ${r(idleRss)} MB before the first send, peak ${r(peakRss)} MB (sampled every 250 ms through both sends, the slices and the 3 s after each).`,
      "",
      `Cached home page while idle (before and after the send): median ${r(idleRps)} requests/s; while the send ran: median ${r(duringRps)} requests/s — ${(ratio * 100).toFixed(1)}% of idle (goal ≥ 90%: ${verdict(ratio >= 0.9)}). Every slice:`,
      "",
      "| slice | phase | requests/s | p99 ms | errors + non-2xx | copies accepted during it | load average at its start |",
      "|---:|---|---:|---:|---:|---:|---|",
      ...slices.map(
        (s, i) =>
          `| ${i + 1} | ${s.phase} | ${r(s.rps)} | ${s.p99} | ${s.errors + s.non2xx} | ${s.phase.startsWith("sending") ? s.sent : ""} | ${s.load} |`,
      ),
      "",
      `Load average (1, 5, 15 min, \`/proc/loadavg\`): ${loadBefore} before the bare loop, ${loadFree} before the unconstrained send; during the sends, every 250 ms: from ${loads[0] ?? "?"} to ${loads.at(-1) ?? "?"} (highest 1-min ${Math.max(...loads.map((l) => Number(l.split(" ")[0])))}).`,
      "",
      `Measured ${new Date().toISOString().slice(0, 10)} by \`${knobs}npm run bench:newsletter\`.`,
      "",
    ];
    const section = lines.join("\n");
    writeSection("Newsletter sending", section);
    console.log(section);
  } finally {
    if (server) await stop(server);
    smtp.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
