// Bad input to the account and profile endpoints: always a 4xx with a clear message, and
// nothing changes.
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { profiles, user } from "../../../db/schema/index.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { cookiesFrom } from "../../../testing/test-server.ts";

startFileServer();
let cookie: string;
const email = "bad-input@example.com";

beforeAll(async () => {
  await s.api("/api/auth/sign-up/email", {
    method: "POST",
    json: { name: "Bad Input", email, password: "correct horse battery" },
  });
  const mail = await s.smtp.waitFor(email, "Confirm your email");
  await fetch(firstLink(mail.text), { redirect: "manual" });
  const res = await s.api("/api/auth/sign-in/email", {
    method: "POST",
    json: { email, password: "correct horse battery" },
  });
  cookie = cookiesFrom(res);
});

async function userCount() {
  const [row] = await s.database.db.select({ n: count() }).from(user);
  return row?.n;
}

async function errorOf(res: Response) {
  const body = (await res.json()) as { error?: { message: string; field?: string }; message?: string };
  return body.error ?? { message: body.message ?? "" };
}

describe("sign-up rejects bad input and creates nobody", () => {
  const cases: [string, string | object, RegExp][] = [
    ["malformed JSON", "{name: oops", /not valid JSON/],
    ["a missing field", { name: "A", password: "correct horse battery" }, /email is required/i],
    ["a wrong type", { name: 42, email: "x@example.com", password: "correct horse battery" }, /Name must be text/],
    [
      "an unknown field",
      { name: "A", email: "x@example.com", password: "correct horse battery", role: "super_admin" },
      /Unknown field: role/,
    ],
    [
      "a very long name",
      { name: "n".repeat(5000), email: "x@example.com", password: "correct horse battery" },
      /at most 100/,
    ],
    ["a short password", { name: "A", email: "x@example.com", password: "short" }, /at least 8/],
    ["an invalid email", { name: "A", email: "not-an-email", password: "correct horse battery" }, /valid email/],
    [
      "control characters in the name",
      { name: "A\u0007B", email: "x@example.com", password: "correct horse battery" },
      /not allowed/,
    ],
    [
      "an off-site callback",
      { name: "A", email: "x@example.com", password: "correct horse battery", callbackURL: "//evil.example" },
      /path on this site/,
    ],
  ];
  for (const [label, body, message] of cases) {
    it(label, async () => {
      const before = await userCount();
      const res = await s.api("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(message);
      expect(await userCount()).toBe(before);
    });
  }

  it("an oversized body", async () => {
    const before = await userCount();
    const res = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "A", email: "big@example.com", password: "correct horse battery", pad: "x".repeat(200_000) },
    });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).message).toMatch(/too large/);
    expect(await userCount()).toBe(before);
  });

  it("a form-encoded body", async () => {
    const res = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=A&email=x%40example.com&password=correct+horse+battery",
    });
    expect(res.status).toBe(415);
  });

  it("keeps unicode names exactly", async () => {
    const name = "Zoë 🦋 Ðœ́ 日本語 \u202Eevil";
    const res = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name, email: "unicode@example.com", password: "correct horse battery" },
    });
    expect(res.status).toBe(200);
    const [row] = await s.database.db.select().from(profiles).where(eq(profiles.email, "unicode@example.com"));
    expect(row?.name).toBe(name);
  });
});

describe("profile endpoint", () => {
  it("needs a session", async () => {
    const res = await apiClient(s).profile.$patch({ json: { name: "Nobody" } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toBe("Not authenticated");
  });

  const cases: [string, string | object, number, RegExp][] = [
    ["malformed JSON", "{", 400, /not valid JSON/],
    ["an empty object", {}, 400, /Nothing to update/],
    ["an unknown field", { name: "X", role: "admin" }, 400, /Unknown field: role/],
    ["a wrong type", { name: ["X"] }, 400, /Name must be text/],
    ["a blank name", { name: "   " }, 400, /Name is required/],
    ["a very long tagline", { tagline: "t".repeat(1000) }, 400, /at most 200/],
  ];
  for (const [label, body, status, message] of cases) {
    it(`rejects ${label} and changes nothing`, async () => {
      const before = await (await apiClient(s, { cookie: cookie }).profile.$get()).json();
      const res = await s.api("/api/profile", {
        method: "PATCH",
        cookie,
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      expect(res.status).toBe(status);
      expect((await errorOf(res)).message).toMatch(message);
      const after = await (await apiClient(s, { cookie: cookie }).profile.$get()).json();
      expect(after).toEqual(before);
    });
  }

  it("updates the signed-in author's own profile only", async () => {
    const res = await apiClient(s, { cookie: cookie }).profile.$patch({ json: { name: "  New Name ", tagline: "Hi" } });
    expect(res.status).toBe(200);
    expect((await readJson(res)).body.profile).toMatchObject({ name: "New Name", tagline: "Hi", email });
    const [other] = await s.database.db.select().from(profiles).where(eq(profiles.email, "unicode@example.com"));
    expect(other?.tagline).toBeNull();
  });
});
