// Abuse of one account from many places: sign-up probing for addresses, password guessing spread
// over source addresses, and reset mail floods (ADR 015).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, session, signInFailures, user } from "../../../db/schema/index.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";

let s: TestServer;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  // Behind a trusted proxy, each X-Forwarded-For is a different client to the per-address limit.
  s = await startTestServer({ TRUST_PROXY: "true" });
});
afterAll(async () => {
  await s?.close();
});

async function verifiedUser(email: string) {
  const res = await s.api("/api/auth/sign-up/email", {
    method: "POST",
    json: { name: "Owner", email, password: PASSWORD },
  });
  expect(res.status).toBe(200);
  await fetch(firstLink((await s.smtp.waitFor(email, "Confirm your email")).text), { redirect: "manual" });
}

const from = (ip: string) => ({ "x-forwarded-for": ip });

function signIn(email: string, password: string, ip: string) {
  return s.api("/api/auth/sign-in/email", { method: "POST", headers: from(ip), json: { email, password } });
}

/** What reached the SMTP server, once the outbox has sent all it could (ADR 048). */
const mailsTo = async (email: string, subject: string) => {
  await s.mailer.idle();
  return s.smtp.mails.filter((m) => m.to.includes(email) && m.subject.includes(subject));
};

async function accountState(email: string) {
  const [u] = await s.database.db.select().from(user).where(eq(user.email, email));
  if (!u) throw new Error(`no user ${email}`);
  const [a] = await s.database.db.select().from(account).where(eq(account.userId, u.id));
  const sessions = await s.database.db.select({ id: session.id }).from(session).where(eq(session.userId, u.id));
  return { user: u, password: a?.password, sessions: sessions.map((x) => x.id).sort() };
}

describe("sign-up with an address that already has an account", () => {
  it("answers exactly like a new sign-up, changes nothing, and mails the owner instead", async () => {
    const taken = "taken@example.com";
    await verifiedUser(taken);
    const before = await accountState(taken);

    const fresh = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Someone", email: "fresh@example.com", password: "another passphrase" },
    });
    const again = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Someone", email: taken, password: "another passphrase" },
    });
    expect(again.status).toBe(fresh.status);
    // Only what differs between any two sign-ups may differ: the id, the address, the clock.
    const shape = (body: { token: unknown; user: Record<string, unknown> }) => ({
      token: body.token,
      keys: Object.keys(body.user),
      user: { ...body.user, id: typeof body.user.id, email: typeof body.user.email, createdAt: 0, updatedAt: 0 },
    });
    const freshBody = await fresh.json();
    const againBody = await again.json();
    expect(shape(againBody)).toEqual(shape(freshBody));
    expect(againBody.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(againBody.user.id).not.toBe(before.user.id);

    const notice = await s.smtp.waitFor(taken, "Someone tried to create a Bookplate account");
    expect(notice.text).toMatch(/\/login\n/);
    expect(notice.text).toMatch(/\/forgot-password\n/);
    expect(await mailsTo(taken, "Confirm your email")).toHaveLength(1);

    expect(await accountState(taken)).toEqual(before);
    expect((await signIn(taken, PASSWORD, "192.0.2.1")).status).toBe(200);
    expect((await signIn(taken, "another passphrase", "192.0.2.1")).status).toBe(401);
  });

  it("does not let sign-ups flood the owner's inbox", async () => {
    const email = "flooded@example.com";
    await verifiedUser(email);
    for (let i = 0; i < 6; i++) {
      const res = await s.api("/api/auth/sign-up/email", {
        method: "POST",
        headers: from(`198.51.100.${i}`),
        json: { name: "Someone", email, password: "another passphrase" },
      });
      expect(res.status).toBe(200);
    }
    expect(await mailsTo(email, "Someone tried to create")).toHaveLength(2);
  });
});

describe("password guessing spread over many source addresses", () => {
  const owner = "guessed@example.com";
  const locked = /^Too many failed sign-in attempts\. Try again in 1 minute or reset your password\.$/;

  it("pauses the account after five wrong passwords, even for the right one, and tells the owner once", async () => {
    await verifiedUser(owner);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(owner, `guess number ${i}`, `203.0.113.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const right = await signIn(owner, PASSWORD, "203.0.113.99");
    expect(right.status).toBe(429);
    expect((await right.clone().json()).error).toMatchObject({ code: "sign_in_locked" });
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await right.json()).error.message).toMatch(locked);
    expect(right.headers.getSetCookie()).toEqual([]);

    const notice = await s.smtp.waitFor(owner, "Sign-ins to your Bookplate account are paused");
    expect(notice.text).toMatch(/\/forgot-password\n/);
    expect(await mailsTo(owner, "paused")).toHaveLength(1);
  });

  it("lets the right password in once the pause is over, and that clears the count", async () => {
    const db = s.database.db;
    await db
      .update(signInFailures)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(signInFailures.email, owner));
    const right = await signIn(owner, PASSWORD, "203.0.113.7");
    expect(right.status).toBe(200);
    expect(await db.select().from(signInFailures).where(eq(signInFailures.email, owner))).toEqual([]);
    // A fresh count: four wrong passwords do not pause the account again.
    for (let i = 0; i < 4; i++) expect((await signIn(owner, "wrong again", `203.0.113.${i}`)).status).toBe(401);
    expect((await signIn(owner, PASSWORD, "203.0.113.8")).status).toBe(200);
    expect(await mailsTo(owner, "paused")).toHaveLength(1);
  });

  it("doubles the pause with each further wrong password", async () => {
    const email = "doubling@example.com";
    await verifiedUser(email);
    for (let i = 0; i < 5; i++) await signIn(email, "wrong", `203.0.113.${20 + i}`);
    const expire = () =>
      s.database.db
        .update(signInFailures)
        .set({ lockedUntil: new Date(Date.now() - 1000) })
        .where(eq(signInFailures.email, email));
    await expire();
    expect((await signIn(email, "wrong", "203.0.113.30")).status).toBe(401);
    const second = await signIn(email, PASSWORD, "203.0.113.31");
    expect((await second.json()).error.message).toMatch(/Try again in 2 minutes/);
    await expire();
    expect((await signIn(email, "wrong", "203.0.113.32")).status).toBe(401);
    const third = await signIn(email, PASSWORD, "203.0.113.33");
    expect((await third.json()).error.message).toMatch(/Try again in 4 minutes/);
  });

  it("leaves other methods on the sign-in path to Better Auth", async () => {
    expect((await s.api("/api/auth/sign-in/email")).status).toBe(404);
  });

  it("answers an address without an account exactly as one with an account", async () => {
    const known = "known-guess@example.com";
    await verifiedUser(known);
    const unknown = "nobody-here@example.com";
    for (let i = 0; i < 7; i++) {
      const a = await signIn(known, "wrong", `198.18.0.${i}`);
      const b = await signIn(unknown, "wrong", `198.18.1.${i}`);
      expect([i, b.status]).toEqual([i, a.status]);
      expect(await b.json()).toEqual(await a.json());
    }
    expect(await mailsTo(unknown, "")).toHaveLength(0);
  });

  it("a password reset ends the pause at once", async () => {
    const email = "reset-unlocks@example.com";
    await verifiedUser(email);
    for (let i = 0; i < 5; i++) await signIn(email, "wrong", `203.0.113.${40 + i}`);
    expect((await signIn(email, PASSWORD, "203.0.113.50")).status).toBe(429);
    await s.api("/api/auth/request-password-reset", { method: "POST", json: { email, redirectTo: "/reset-password" } });
    const mail = await s.smtp.waitFor(email, "Reset your Bookplate password");
    const link = await fetch(firstLink(mail.text), { redirect: "manual" });
    const token = new URL(link.headers.get("location") ?? "", s.url).searchParams.get("token");
    const reset = await s.api("/api/auth/reset-password", {
      method: "POST",
      json: { token, newPassword: "a brand new passphrase" },
    });
    expect(reset.status).toBe(200);
    expect((await signIn(email, "a brand new passphrase", "203.0.113.51")).status).toBe(200);
  });
});

describe("password-reset mail", () => {
  it("reaches one address at most three times an hour, whoever asks, and answers the same", async () => {
    const email = "reset-flood@example.com";
    await verifiedUser(email);
    const unknownAnswer = await (
      await s.api("/api/auth/request-password-reset", { method: "POST", json: { email: "no-account@example.com" } })
    ).json();
    for (let i = 0; i < 30; i++) {
      const res = await s.api("/api/auth/request-password-reset", {
        method: "POST",
        headers: from(`192.0.2.${i % 3}`),
        json: { email },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(unknownAnswer);
    }
    expect(await mailsTo(email, "Reset your Bookplate password")).toHaveLength(3);
  });
});
