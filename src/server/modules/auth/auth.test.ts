import { describe, expect, it } from "vitest";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { cookiesFrom } from "../../../testing/test-server.ts";

startFileServer();

async function signUpAndVerify(email: string, password = "correct horse battery") {
  const res = await s.api("/api/auth/sign-up/email", {
    method: "POST",
    json: { name: "Jane Author", email, password },
  });
  expect(res.status).toBe(200);
  const mail = await s.smtp.waitFor(email, "Confirm your email");
  const verify = await fetch(firstLink(mail.text), { redirect: "manual" });
  expect([200, 302]).toContain(verify.status);
  return cookiesFrom(verify);
}

describe("accounts", () => {
  it("refuses sign-in before the email is verified, then accepts it after", async () => {
    const email = "verify-first@example.com";
    await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "V", email, password: "correct horse battery" },
    });
    const early = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: "correct horse battery" },
    });
    expect(early.status).toBe(403);
    const mail = await s.smtp.waitFor(email, "Confirm your email");
    await fetch(firstLink(mail.text), { redirect: "manual" });
    const ok = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: "correct horse battery" },
    });
    expect(ok.status).toBe(200);
    const cookie = cookiesFrom(ok);
    const me = await apiClient(s, { cookie: cookie }).profile.$get();
    expect(me.status).toBe(200);
    expect((await readJson(me)).body.profile).toMatchObject({ email, name: "V", bio: "" });
  });

  it("sends an unverified sign-in's mail to the app's landing page, carrying where the person was heading", async () => {
    const email = "verify-on-sign-in@example.com";
    const password = "correct horse battery";
    await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "W", email, password, callbackURL: "/verify-email" },
    });
    await s.smtp.waitFor(email, "Confirm your email");
    const callbacks: (string | null)[] = [];
    for (const next of ["/onboarding?tier=midi", "//evil.example/phish", undefined]) {
      const before = s.smtp.mails.filter((m) => m.to.includes(email)).length;
      const res = await s.api("/api/auth/sign-in/email", {
        method: "POST",
        json: { email, password },
        headers: next ? { "x-verify-next": next } : {},
      });
      expect(res.status).toBe(403);
      await expect.poll(() => s.smtp.mails.filter((m) => m.to.includes(email)).length).toBe(before + 1);
      const mail = s.smtp.mails.filter((m) => m.to.includes(email)).at(-1);
      callbacks.push(new URL(firstLink(mail?.text ?? "")).searchParams.get("callbackURL"));
    }
    expect(callbacks).toEqual([
      "/verify-email?next=%2Fonboarding%3Ftier%3Dmidi",
      "/verify-email?next=%2Fdashboard",
      "/verify-email?next=%2Fdashboard",
    ]);
    // Following the link verifies, signs in and lands on that page (which goes on to the wizard).
    const mail = s.smtp.mails.filter((m) => m.to.includes(email))[1];
    const landing = await fetch(firstLink(mail?.text ?? ""), { redirect: "manual" });
    expect(landing.status).toBe(302);
    expect(landing.headers.get("location")).toBe("/verify-email?next=%2Fonboarding%3Ftier%3Dmidi");
    expect(cookiesFrom(landing)).toContain("session_token");
  });

  it("answers a wrong password with the generic message", async () => {
    await signUpAndVerify("wrongpw@example.com");
    const res = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "wrongpw@example.com", password: "not the password" },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toEqual({ code: "invalid_credentials", message: "Invalid email or password" });
  });

  it("answers Better Auth's refusals in the one error body, with our codes", async () => {
    // Unverified: the right password, but the address was never confirmed.
    const email = "unverified-shape@example.com";
    const up = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Jane Author", email, password: "correct horse battery" },
    });
    expect(up.status).toBe(200);
    const unverified = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: "correct horse battery" },
    });
    expect(unverified.status).toBe(403);
    expect((await unverified.json()).error).toMatchObject({ code: "email_not_verified" });
    // A reset link that was never issued.
    const reset = await s.api("/api/auth/reset-password", {
      method: "POST",
      json: { newPassword: "another long password", token: "not-a-real-token" },
    });
    expect(reset.status).toBe(400);
    expect((await reset.json()).error).toMatchObject({ code: "invalid_token" });
    // Successes pass untouched.
    const ok = await s.api("/api/auth/get-session");
    expect(ok.status).toBe(200);
  });

  it("resets a forgotten password by mail and ends the old sessions", async () => {
    const email = "reset@example.com";
    const oldCookie = await signUpAndVerify(email);
    expect((await apiClient(s, { cookie: oldCookie }).profile.$get()).status).toBe(200);
    const ask = await s.api("/api/auth/request-password-reset", {
      method: "POST",
      json: { email, redirectTo: "/reset-password" },
    });
    expect(ask.status).toBe(200);
    const mail = await s.smtp.waitFor(email, "Reset your Bookplate password");
    const link = await fetch(firstLink(mail.text), { redirect: "manual" });
    const location = new URL(link.headers.get("location") ?? "", s.url);
    const token = location.searchParams.get("token");
    expect(token).toBeTruthy();
    const reset = await s.api("/api/auth/reset-password", {
      method: "POST",
      json: { token, newPassword: "a brand new passphrase" },
    });
    expect(reset.status).toBe(200);
    expect((await apiClient(s, { cookie: oldCookie }).profile.$get()).status).toBe(401);
    const signIn = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: "a brand new passphrase" },
    });
    expect(signIn.status).toBe(200);
  });

  it("sets a host-only, HttpOnly, SameSite=Lax session cookie", async () => {
    await signUpAndVerify("cookie@example.com");
    const res = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "cookie@example.com", password: "correct horse battery" },
    });
    const session = res.headers.getSetCookie().find((c) => c.includes("session_token"));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Domain=/i);
  });

  it("refuses a state-changing request from another origin", async () => {
    const res = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      headers: { origin: "https://evil.example" },
      json: { email: "cookie@example.com", password: "correct horse battery" },
    });
    expect(res.status).toBe(403);
  });
});
