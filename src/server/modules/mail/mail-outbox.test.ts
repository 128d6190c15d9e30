// The outbox as a queue (ADR 048): no request waits on SMTP, a frozen server only delays mail,
// temporary refusals are retried and permanent ones fail, and each row goes out once even when
// two processes share the database.
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, websites } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, createStaffUser, type TestAuthor, type TestUser } from "../../../testing/users.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";

// Retries come quickly here; the SMTP timeouts stay the product's (10 s), so a request that waited
// on SMTP would take that long.
const DELIVERY = { retryDelaysMs: [150, 150, 150], pollMs: 150 };

let s: TestServer;
let author: TestAuthor;
let staff: TestUser;
beforeAll(async () => {
  s = await startTestServer({}, { mailDelivery: DELIVERY });
  author = await createAuthor(s);
  // The site's own sign-up form, shown while it has no subscribers yet (ADR 052).
  await s.database.db
    .update(websites)
    .set({ showWhenEmpty: ["newsletter"] })
    .where(eq(websites.userId, author.id));
  await markSiteChanged(s.database.db, author.id);
  staff = await createStaffUser(s, "admin", { prefix: "staff" });
});
afterAll(async () => {
  s?.smtp.thaw();
  await s?.close();
});
// A test that fails while the SMTP server is frozen must not leave it frozen for the next ones.
afterEach(() => s?.smtp.thaw());

/** A form POST under a site's Host name (fetch cannot set Host). */
async function postForm(host: string, path: string, form: Record<string, string>) {
  return (await s.postOnHost(host, path, form)).status;
}

async function timed(run: () => Promise<number | Response>) {
  const started = performance.now();
  const out = await run();
  return { status: typeof out === "number" ? out : out.status, ms: performance.now() - started, out };
}

const rowsTo = (to: string) => s.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

/** The requests that mail someone, each with the address it mails and a part of the subject. */
function mailingRequests(tag: string) {
  const site = `${author.subdomain}.localhost`;
  const reader = `reader-${tag}@example.com`;
  const fan = `fan-${tag}@example.com`;
  const buyer = `buyer-${tag}@example.com`;
  const newcomer = `newcomer-${tag}@example.com`;
  return [
    {
      what: "a reader's contact message",
      to: author.email,
      subject: `Contact ${tag}`,
      run: () =>
        postForm(site, "/contact", { name: "Reader", email: reader, subject: `Contact ${tag}`, message: "Hi" }),
    },
    {
      what: "a newsletter sign-up",
      to: fan,
      subject: "Please confirm your newsletter subscription",
      run: () => postForm(site, "/newsletter", { email: fan }),
    },
    {
      what: "the marketing contact form",
      to: buyer,
      subject: "We received your message",
      run: () =>
        s.api("/contact", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ name: "Buyer", email: buyer, subject: "Plans", message: "Question" }).toString(),
        }),
    },
    {
      what: "a sign-up",
      to: newcomer,
      subject: "Confirm your email",
      run: () =>
        s.api("/api/auth/sign-up/email", {
          method: "POST",
          json: { name: "New", email: newcomer, password: "correct horse battery" },
        }),
    },
    {
      what: "a password reset",
      to: staff.email,
      subject: "Reset your Bookplate password",
      run: () =>
        s.api("/api/auth/request-password-reset", {
          method: "POST",
          json: { email: staff.email, redirectTo: "/reset-password" },
        }),
    },
  ];
}

describe("a frozen SMTP server", () => {
  it("holds up no request: forms, sign-up, reset and the health panel answer at once; mail goes when it thaws", async () => {
    // A normal run first, for comparison (and to warm every path up).
    const normal = [];
    for (const r of mailingRequests("warm")) {
      const t = await timed(r.run);
      expect(t.status, r.what).toBe(200);
      normal.push(t.ms);
      await s.smtp.waitFor(r.to, r.subject);
    }
    await s.mailer.idle();

    const frozenAt = new Date(Date.now() - 1000);
    const receivedBefore = s.smtp.mails.length;
    s.smtp.freeze();
    const asked = mailingRequests("frozen");
    for (const [i, r] of asked.entries()) {
      const t = await timed(r.run);
      expect(t.status, r.what).toBe(200);
      // Well under the 10 s the SMTP client would wait for a greeting (no tight timing: the
      // machine is shared, and a loaded one can take seconds for any request).
      expect(t.ms, `${r.what}: ${Math.round(t.ms)} ms frozen, ${Math.round(normal[i] ?? 0)} ms normal`).toBeLessThan(
        5000,
      );
    }
    const waiting = await s.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.status, ["queued", "sending"]), gte(mailOutbox.createdAt, frozenAt)));
    expect(waiting[0]?.n).toBe(asked.length);

    const health = await timed(() => s.api("/api/admin/system", { cookie: staff.cookie }));
    expect(health.status).toBe(200);
    // The Mail check itself waits its 2.5 s for a greeting; the panel must not wait the SMTP
    // client's 10 s.
    expect(health.ms).toBeLessThan(5000);
    const body = (await (health.out as Response).json()) as { checks: { name: string; ok: boolean; detail: string }[] };
    const mail = body.checks.find((c) => c.name === "Mail");
    expect(mail?.ok).toBe(false);
    expect(mail?.detail).toMatch(/did not answer/);
    const outbox = body.checks.find((c) => c.name === "Mail outbox");
    expect(outbox?.detail).toMatch(new RegExp(`^${asked.length} waiting \\(oldest \\d+ s\\), \\d+ failed`));
    // Nothing got through while frozen.
    expect(s.smtp.mails.length).toBe(receivedBefore);

    s.smtp.thaw();
    for (const r of asked) await s.smtp.waitFor(r.to, r.subject, 20_000);
    await s.mailer.idle();
    for (const to of [asked[1]?.to ?? "", asked[2]?.to ?? "", asked[3]?.to ?? ""]) {
      expect((await rowsTo(to)).map((r) => r.status)).toEqual(["sent"]);
    }
    expect((await s.api("/api/admin/system", { cookie: staff.cookie }).then((r) => r.json())).checks).toContainEqual({
      name: "Mail",
      ok: true,
      detail: expect.stringMatching(/answered in \d+ ms/),
    });
  }, 60_000);
});

describe("failures", () => {
  it("retries a temporary refusal (4xx) and then delivers", async () => {
    await s.mailer.idle();
    s.smtp.refuse(451);
    const to = "retry-me@example.com";
    await s.mailer.send({ to, subject: "Temporary trouble", text: "Second time lucky" });
    await expect.poll(async () => (await rowsTo(to))[0]?.attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => (await rowsTo(to))[0]?.error ?? "", { timeout: 10_000 }).toMatch(/451/);
    const [waiting] = await rowsTo(to);
    expect(waiting?.status === "queued" || waiting?.status === "sending").toBe(true);
    s.smtp.refuse(null);
    await s.smtp.waitFor(to, "Temporary trouble");
    await s.mailer.idle();
    const [done] = await rowsTo(to);
    expect(done?.status).toBe("sent");
    expect(done?.attempts).toBeGreaterThanOrEqual(2);
    expect(done?.sentAt).toBeInstanceOf(Date);
  });

  it("gives up after the last attempt when the refusal stays temporary", async () => {
    await s.mailer.idle();
    s.smtp.refuse(421);
    const to = "never-ready@example.com";
    try {
      await s.mailer.send({ to, subject: "Always later", text: "…" });
      await expect.poll(async () => (await rowsTo(to))[0]?.status, { timeout: 15_000 }).toBe("failed");
    } finally {
      s.smtp.refuse(null);
    }
    const [row] = await rowsTo(to);
    expect(row?.attempts).toBe(DELIVERY.retryDelaysMs.length + 1);
    expect(row?.error).toMatch(/421/);
    expect(s.smtp.mails.some((m) => m.to.includes(to))).toBe(false);
  });

  it("marks a permanent refusal (5xx) failed at once, without retrying", async () => {
    await s.mailer.idle();
    s.smtp.refuse(550);
    const to = "no-such-mailbox@example.com";
    try {
      await s.mailer.send({ to, subject: "Bounced", text: "…" });
      await expect.poll(async () => (await rowsTo(to))[0]?.status, { timeout: 10_000 }).toBe("failed");
    } finally {
      s.smtp.refuse(null);
    }
    // Another round would have counted another attempt.
    await new Promise((r) => setTimeout(r, 5 * DELIVERY.pollMs));
    const [row] = await rowsTo(to);
    expect(row?.attempts).toBe(1);
    expect(row?.error).toMatch(/550/);
    const health = await (await s.api("/api/admin/system", { cookie: staff.cookie })).json();
    const failed = await s.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "failed"), sql`${mailOutbox.createdAt} > now() - interval '1 day'`));
    expect(health.checks).toContainEqual(
      expect.objectContaining({ name: "Mail outbox", detail: expect.stringContaining(`${failed[0]?.n} failed`) }),
    );
    expect(failed[0]?.n).toBe(2);
  });
});

describe("the queue", () => {
  it("sends a mail queued in a transaction only if it commits", async () => {
    await s.database.db
      .transaction(async (tx) => {
        await s.mailer.send({ to: "rolled-back@example.com", subject: "Never", text: "…" }, tx);
        throw new Error("roll back");
      })
      .catch(() => {});
    await s.database.db.transaction(async (tx) => {
      await s.mailer.send({ to: "committed@example.com", subject: "Committed", text: "…" }, tx);
    });
    // Nothing wakes the sender but the NOTIFY that the commit delivers (or the poll).
    await s.smtp.waitFor("committed@example.com", "Committed");
    await s.mailer.idle();
    expect(await rowsTo("rolled-back@example.com")).toEqual([]);
    expect(s.smtp.mails.some((m) => m.to.includes("rolled-back@example.com"))).toBe(false);
  });

  it("sends again a row whose sender died while sending it (its lease ran out)", async () => {
    const to = "orphan@example.com";
    await s.database.db.insert(mailOutbox).values({
      to,
      subject: "Left behind",
      text: "A process claimed me and stopped",
      status: "sending",
      attempts: 1,
      leaseUntil: sql`now() - interval '1 second'`,
    });
    await s.smtp.waitFor(to, "Left behind");
    await s.mailer.idle();
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ status: "sent", attempts: 2, leaseUntil: null });
  });

  it("keeps Reply-To with the queued mail", async () => {
    await s.mailer.send({
      to: "author-inbox@example.com",
      subject: "With a reply address",
      text: "…",
      replyTo: { name: "Ann Reader", address: "ann@example.com" },
    });
    const mail = await s.smtp.waitFor("author-inbox@example.com", "With a reply address");
    expect(mail.raw).toMatch(/^Reply-To: Ann Reader <ann@example\.com>$/im);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("two processes on one database", () => {
  it("send each queued mail exactly once", async () => {
    // It sends through the same SMTP server, as a second process would.
    const b = await startTestServer({}, { sharedDatabaseUrl: s.databaseUrl, mailDelivery: DELIVERY });
    try {
      const addresses = Array.from({ length: 30 }, (_, i) => `twice-${i}@example.com`);
      // Queued through both, so both senders are woken and race for the rows.
      await Promise.all(
        addresses.map((to, i) => (i % 2 ? s.mailer : b.mailer).send({ to, subject: "Once only", text: "…" })),
      );
      for (const to of addresses) await s.smtp.waitFor(to, "Once only");
      await Promise.all([s.mailer.idle(), b.mailer.idle()]);
      await new Promise((r) => setTimeout(r, 3 * DELIVERY.pollMs));
      const received = s.smtp.mails.filter((m) => m.subject === "Once only").map((m) => m.to[0]);
      expect(received.sort()).toEqual([...addresses].sort());
      const rows = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, "Once only"));
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(addresses.map(() => ["sent", 1]));
    } finally {
      await b.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("a process that stops", () => {
  // Last in the file: it stops this file's own sender, so only the processes below send.
  it("loses no mail: queued rows wait for the next process, a row cut off mid-send is sent after its lease", async () => {
    await s.mailer.idle();
    await s.mailer.close();
    const a = await startTestServer(
      {},
      {
        sharedDatabaseUrl: s.databaseUrl,
        mailDelivery: { ...DELIVERY, timeoutMs: 800, leaseMs: 2500, closeGraceMs: 100 },
      },
    );
    s.smtp.freeze();
    let thawed = false;
    try {
      await a.mailer.send({ to: "cut-off@example.com", subject: "Cut off", text: "…" });
      await expect.poll(async () => (await rowsTo("cut-off@example.com"))[0]?.status).toBe("sending");
      await a.mailer.send({ to: "waiting-1@example.com", subject: "Waiting", text: "…" });
      await a.mailer.send({ to: "waiting-2@example.com", subject: "Waiting", text: "…" });
      await a.close();
      const left = await s.database.db
        .select({ to: mailOutbox.to, status: mailOutbox.status })
        .from(mailOutbox)
        .where(inArray(mailOutbox.to, ["cut-off@example.com", "waiting-1@example.com", "waiting-2@example.com"]));
      expect(left.sort((x, y) => x.to.localeCompare(y.to))).toEqual([
        { to: "cut-off@example.com", status: "sending" },
        { to: "waiting-1@example.com", status: "queued" },
        { to: "waiting-2@example.com", status: "queued" },
      ]);
      // The stopped process's SMTP client gives up (0.8 s) before the server answers again.
      await new Promise((r) => setTimeout(r, 1200));
      s.smtp.thaw();
      thawed = true;
      const b = await startTestServer({}, { sharedDatabaseUrl: s.databaseUrl, mailDelivery: DELIVERY });
      try {
        for (const to of ["waiting-1@example.com", "waiting-2@example.com", "cut-off@example.com"]) {
          await s.smtp.waitFor(to, to.startsWith("cut") ? "Cut off" : "Waiting", 15_000);
        }
        await b.mailer.idle();
        for (const to of ["cut-off@example.com", "waiting-1@example.com", "waiting-2@example.com"]) {
          expect(s.smtp.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
          expect((await rowsTo(to)).map((r) => r.status)).toEqual(["sent"]);
        }
      } finally {
        await b.close();
      }
    } finally {
      if (!thawed) s.smtp.thaw();
    }
  }, 60_000);
});
