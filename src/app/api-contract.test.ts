// The API contract (ADR 021): every /api route the running app mounts is in the OpenAPI document
// it serves, with a schema for each success answer, and the document names nothing that is not
// mounted; it passes Redocly's recommended rules; and a client that follows only the document
// can finish a two-factor sign-in. (Every answer is checked against the document at run time in
// every test: http/openapi.ts, ADR 059.)
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { beforeAll, describe, expect, it } from "vitest";
import { totp } from "../../e2e/totp.ts";
import { s, startFileServer } from "../testing/file-server.ts";
import { firstLink } from "../testing/smtp-catcher.ts";
import { cookiesFrom } from "../testing/test-server.ts";

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation & { security?: Record<string, string[]>[] }>>;
  components: { securitySchemes?: Record<string, { type: string; in?: string; name?: string }> };
};

startFileServer();
let doc: Document;
beforeAll(async () => {
  const res = await s.api("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = (await res.json()) as Document;
});

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
/** Hono's `/books/:id` is the document's `/books/{id}`. */
const documentPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

/** Modules whose routes are still plain Hono routes, being moved to declarations (issue 11). */
const PENDING: string[] = [];

/** The routes a request can reach, once each (a route's middleware is listed beside its handler). */
function mountedApiRoutes() {
  const seen = new Map<string, { method: string; path: string }>();
  for (const r of s.routes) {
    if (!r.path.startsWith("/api/") || !METHODS.has(r.method)) continue;
    // Catch-alls: Better Auth's (its paths are documented one by one) and the API's 404.
    if (r.path.endsWith("*")) continue;
    if (r.path === "/api/openapi.json") continue;
    if (PENDING.some((p) => r.path.startsWith(p))) continue;
    seen.set(`${r.method} ${r.path}`, r);
  }
  return [...seen.values()];
}

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).length).toBeGreaterThan(5);
  });

  it("lists every mounted /api route with a schema for each success answer", () => {
    const routes = mountedApiRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(5);
    const problems: string[] = [];
    for (const { method, path } of routes) {
      const op = doc.paths[documentPath(path)]?.[method.toLowerCase()];
      if (!op) {
        problems.push(`${method} ${path}: not in the document`);
        continue;
      }
      const successes = Object.entries(op.responses ?? {}).filter(([status]) => /^2/.test(status));
      if (successes.length === 0) problems.push(`${method} ${path}: no success response`);
      for (const [status, response] of successes) {
        if (status === "204") continue;
        const schemas = Object.values(response.content ?? {}).filter((m) => m.schema !== undefined);
        if (schemas.length === 0) problems.push(`${method} ${path}: ${status} has no schema`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("names no operation the app does not mount", () => {
    const mounted = new Set(mountedApiRoutes().map((r) => `${r.method.toLowerCase()} ${documentPath(r.path)}`));
    const stale: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        // Better Auth answers /api/auth/* behind one catch-all.
        if (path.startsWith("/api/auth/")) continue;
        if (!mounted.has(`${method} ${path}`)) stale.push(`${method} ${path}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it("documents the Better Auth endpoints the app uses, with the body our schema checks", () => {
    const signIn = doc.paths["/api/auth/sign-in/email"]?.post as Operation & { requestBody?: unknown };
    expect(signIn?.requestBody).toBeDefined();
    expect(doc.paths["/api/auth/sign-up/email"]?.post).toBeDefined();
    expect(doc.paths["/api/auth/get-session"]?.get).toBeDefined();
  });

  it("describes errors with the one error body", () => {
    const r = doc.paths["/api/posts/{id}"]?.patch?.responses?.["400"];
    expect(JSON.stringify(r)).toContain("#/components/schemas/ApiError");
  });

  it("passes Redocly's recommended rules with no errors", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "openapi.json", config });
    const errors = problems
      .filter((p) => p.severity === "error")
      .map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ""})`);
    expect(errors).toEqual([]);
  });

  it("names the session cookie, and which operations need it", () => {
    expect(doc.components.securitySchemes?.session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "__Secure-better-auth.session_token",
    });
    expect(doc.paths["/api/profile"]?.get?.security).toEqual([{ session: [] }]);
    expect(doc.paths["/api/auth/sign-in/email"]?.post?.security).toEqual([]);
    expect(doc.paths["/api/auth/two-factor/verify-totp"]?.post?.security).toEqual([
      { session: [] },
      { twoFactorPending: [] },
    ]);
  });
});

describe("/api/auth, as the document describes it", () => {
  it("answers an endpoint off the allow-list with the one error body", async () => {
    for (const method of ["GET", "POST"]) {
      const res = await s.api("/api/auth/nope", { method, ...(method === "POST" ? { json: {} } : {}) });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: "not_found", message: "Not found" } });
    }
  });

  it("lets a client that follows the document finish a two-factor sign-in", async () => {
    // Every answer below is checked against the document's schema for its status (ADR 059): a
    // mismatch would be a 500 here.
    const email = "contract-2fa@example.com";
    const password = "correct horse battery";
    const signedOut = await s.api("/api/auth/get-session");
    expect(signedOut.status).toBe(200);
    expect(await signedOut.json()).toBeNull(); // signed out: the null the document's schema allows
    await s.api("/api/auth/sign-up/email", { method: "POST", json: { name: "Contract", email, password } });
    await fetch(firstLink((await s.smtp.waitFor(email, "Confirm your email")).text), { redirect: "manual" });
    const signedIn = await s.api("/api/auth/sign-in/email", { method: "POST", json: { email, password } });
    expect(signedIn.status).toBe(200);
    let cookie = cookiesFrom(signedIn);

    const enabled = await s.api("/api/auth/two-factor/enable", { method: "POST", cookie, json: { password } });
    expect(enabled.status).toBe(200);
    const { totpURI } = (await enabled.json()) as { totpURI: string };
    const secret = new URL(totpURI).searchParams.get("secret") ?? "";
    const setup = await s.api("/api/auth/two-factor/verify-totp", {
      method: "POST",
      cookie,
      json: { code: totp(secret) },
    });
    expect(setup.status).toBe(200);
    cookie = cookiesFrom(setup, cookie);
    expect((await s.api("/api/auth/sign-out", { method: "POST", cookie, json: {} })).status).toBe(200);

    const firstStep = await s.api("/api/auth/sign-in/email", { method: "POST", json: { email, password } });
    expect(await firstStep.json()).toMatchObject({ twoFactorRedirect: true });
    const pending = cookiesFrom(firstStep);
    expect(pending).toContain("two_factor");
    // The next 30-second window: the setup's code may not be used twice.
    const code = totp(secret, Date.now() + 30_000);
    const secondStep = await s.api("/api/auth/two-factor/verify-totp", {
      method: "POST",
      cookie: pending,
      json: { code, trustDevice: false },
    });
    expect(secondStep.status).toBe(200);
    const session = await s.api("/api/auth/get-session", { cookie: cookiesFrom(secondStep) });
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);
  });
});
