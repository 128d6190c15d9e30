// Sessions across devices, and the sign-in rate limit keyed on the real client address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../../../testing/api-client.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { cookiesFrom, startTestServer, type TestServer } from "../../../testing/test-server.ts";

let s: TestServer;
const email = "devices@example.com";
const password = "correct horse battery";

beforeAll(async () => {
  s = await startTestServer({}, { authRateLimit: { window: 60, max: 8 } });
  await s.api("/api/auth/sign-up/email", { method: "POST", json: { name: "Devices", email, password } });
  await fetch(firstLink((await s.smtp.waitFor(email, "Confirm your email")).text), { redirect: "manual" });
});
afterAll(async () => {
  await s?.close();
});

async function signIn(agent: string) {
  const res = await s.api("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "user-agent": agent },
    json: { email, password },
  });
  expect(res.status).toBe(200);
  return cookiesFrom(res);
}

const authed = async (cookie: string) => (await apiClient(s, { cookie: cookie }).profile.$get()).status;

describe("sessions", () => {
  it("lists sessions, revokes one, signs out of this device and of all devices", async () => {
    const laptop = await signIn("Laptop");
    const phone = await signIn("Phone");
    const tablet = await signIn("Tablet");

    const list = await (await s.api("/api/auth/list-sessions", { cookie: laptop })).json();
    // Verifying the email signed in one more session (user agent "node") before these.
    expect(list.map((x: { userAgent: string }) => x.userAgent)).toEqual(
      expect.arrayContaining(["Laptop", "Phone", "Tablet"]),
    );

    const phoneToken = list.find((x: { userAgent: string }) => x.userAgent === "Phone").token;
    expect(
      (await s.api("/api/auth/revoke-session", { method: "POST", cookie: laptop, json: { token: phoneToken } })).status,
    ).toBe(200);
    expect(await authed(phone)).toBe(401);
    expect(await authed(tablet)).toBe(200);

    expect((await s.api("/api/auth/sign-out", { method: "POST", cookie: tablet, json: {} })).status).toBe(200);
    expect(await authed(tablet)).toBe(401);
    expect(await authed(laptop)).toBe(200);

    const again = await signIn("Again");
    expect((await s.api("/api/auth/revoke-sessions", { method: "POST", cookie: again, json: {} })).status).toBe(200);
    expect(await authed(laptop)).toBe(401);
    expect(await authed(again)).toBe(401);
  });

  it("limits sign-in attempts per client address, ignoring a forged X-Forwarded-For", async () => {
    let limited = 0;
    for (let i = 0; i < 12; i++) {
      const res = await s.api("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "x-forwarded-for": `203.0.113.${i}`, "x-bookplate-client-ip": `198.51.100.${i}` },
        json: { email, password: "wrong password" },
      });
      if (res.status === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
  });
});
