// Better Auth answers /api/auth/* — but only the endpoints the app's screens and mails use
// (ADR 044). Everything else it mounts (its admin plugin's set-role, impersonate-user,
// remove-user, …, and whatever a later version adds) is a 404 here: staff powers live behind
// /api/admin, with our rules and the audit log. The forms that take free input are checked
// against our own strict schemas first, so bad input gets the same 400 shape as the rest of
// the API.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type ApiErrorCode, defaultErrorCode } from "../../../shared/api-errors.ts";
import {
  changePasswordSchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
  sendVerificationSchema,
  signInSchema,
  signUpSchema,
} from "../../../shared/schemas/auth.ts";
import type { AppVars } from "../../http/context.ts";
import { errorBody, HttpError, invalidJson, notFound, parseWith } from "../../http/errors.ts";
import { errors, json } from "../../http/openapi.ts";
import { clientAddress } from "../../lib/client-address.ts";
import { claimSignInAttempt, hasAccount, lockedMessage, settleSignIn } from "./account-abuse.service.ts";
import { CLIENT_IP_HEADER } from "./auth.ts";

export const AUTH_BASE = "/api/auth";

export type ReachableAuthEndpoint = {
  method: "GET" | "POST";
  /** Under /api/auth; `{token}` is one path segment of letters, digits, `-` and `_`. */
  path: string;
  /** Our schema for the JSON body, checked before Better Auth sees it. */
  body?: z.ZodType;
  /** Who calls it: a screen of the SPA or a link in a mail. */
  usedBy: string;
};

/**
 * The allow-list: every Better Auth endpoint a request may reach, each with the screen or mail
 * that needs it. A path is matched exactly as sent (no folding of case, slashes or
 * percent-escapes), so Better Auth only ever sees a path written here.
 */
export const REACHABLE_AUTH_ENDPOINTS: readonly ReachableAuthEndpoint[] = [
  { method: "POST", path: "/sign-up/email", body: signUpSchema, usedBy: "sign-up form" },
  { method: "POST", path: "/sign-in/email", body: signInSchema, usedBy: "sign-in form" },
  { method: "POST", path: "/sign-out", usedBy: "the Sign out buttons" },
  { method: "GET", path: "/get-session", usedBy: "every signed-in screen (who is this?)" },
  { method: "GET", path: "/verify-email", usedBy: "the link in the verification mail" },
  {
    method: "POST",
    path: "/send-verification-email",
    body: sendVerificationSchema,
    usedBy: "sign-in form: send a fresh verification link",
  },
  {
    method: "POST",
    path: "/request-password-reset",
    body: requestPasswordResetSchema,
    usedBy: "forgot-password form",
  },
  { method: "GET", path: "/reset-password/{token}", usedBy: "the link in the password-reset mail" },
  { method: "POST", path: "/reset-password", body: resetPasswordSchema, usedBy: "reset-password form" },
  { method: "POST", path: "/change-password", body: changePasswordSchema, usedBy: "Account: change password" },
  { method: "GET", path: "/list-sessions", usedBy: "Account: sessions" },
  { method: "POST", path: "/revoke-session", usedBy: "Account: sign out one device" },
  { method: "POST", path: "/revoke-other-sessions", usedBy: "Account: sign out other devices" },
  { method: "POST", path: "/revoke-sessions", usedBy: "Account: sign out everywhere" },
  { method: "POST", path: "/two-factor/enable", usedBy: "Account: turn on two-factor" },
  { method: "POST", path: "/two-factor/disable", usedBy: "Account: turn off two-factor" },
  { method: "POST", path: "/two-factor/generate-backup-codes", usedBy: "Account: new backup codes" },
  { method: "POST", path: "/two-factor/verify-totp", usedBy: "sign-in's second step; two-factor setup" },
  { method: "POST", path: "/two-factor/verify-backup-code", usedBy: "sign-in's second step with a backup code" },
];

const SEGMENT = /^[A-Za-z0-9_-]{1,200}$/;

/** The allow-list entry for this method and raw (still percent-encoded) path, if any. */
export function reachableAuthEndpoint(method: string, rawPath: string): ReachableAuthEndpoint | undefined {
  if (!rawPath.startsWith(`${AUTH_BASE}/`)) return undefined;
  const got = rawPath.slice(AUTH_BASE.length).split("/");
  return REACHABLE_AUTH_ENDPOINTS.find((e) => {
    if (e.method !== method) return false;
    const want = e.path.split("/");
    return (
      want.length === got.length && want.every((w, i) => (w === "{token}" ? SEGMENT.test(got[i] ?? "") : w === got[i]))
    );
  });
}

const SIGN_IN = "/sign-in/email";
const SIGN_UP = "/sign-up/email";

/**
 * A queue per key: `work` runs after any other work for its key in this app has finished, so a
 * double-clicked sign-up finds the account the first click made instead of racing it to the insert.
 */
function queuePerKey() {
  const running = new Map<string, Promise<unknown>>();
  return async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const mine = (running.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    running.set(key, mine);
    try {
      return await mine;
    } finally {
      if (running.get(key) === mine) running.delete(key);
    }
  };
}

export function authRoutes() {
  const r = new Hono<AppVars>();
  const oneAtATime = queuePerKey();
  r.all("/auth/*", async (c) => {
    // The raw path, as Better Auth's router will read it: Hono's `c.req.path` is decoded.
    const endpoint = reachableAuthEndpoint(c.req.method, new URL(c.req.url).pathname);
    if (!endpoint) throw notFound();
    let body: string | undefined;
    let parsed: unknown;
    if (endpoint.body) {
      if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) {
        throw new HttpError(415, "Send the request body as JSON (Content-Type: application/json)");
      }
      body = await c.req.text();
      let raw: unknown;
      try {
        raw = JSON.parse(body);
      } catch {
        throw invalidJson();
      }
      parsed = parseWith(endpoint.body, raw);
      body = JSON.stringify(parsed);
    }
    const deps = c.get("deps");
    const request = forwardable(c, deps.env.trustProxy, body);
    if (endpoint.path === SIGN_UP) {
      const input = parsed as z.infer<typeof signUpSchema>;
      return inOurShape(
        await oneAtATime(input.email.toLowerCase(), async () => {
          const res = await deps.auth.handler(request);
          // Two sign-ups for one new address at once (in two processes: this one takes them in
          // turn): both find no account, one insert wins and Better Auth answers the other
          // "Failed to create user" (422), telling that racer the address is taken. Asked again,
          // it answers as it answers any taken address (ADR 044).
          if (res.status !== 422 || !(await hasAccount(deps.database.db, input.email))) return res;
          return deps.auth.api.signUpEmail({ body: input, headers: request.headers, asResponse: true });
        }),
      );
    }
    if (endpoint.path !== SIGN_IN) return inOurShape(await deps.auth.handler(request));

    // Password guessing is slowed per account, across every source address (ADR 015).
    const { email } = parsed as { email: string };
    const abuse = { db: deps.database.db, mailer: deps.mailer, appOrigin: deps.env.appOrigin };
    const claim = await claimSignInAttempt(abuse.db, email);
    if (!claim.allowed) {
      return c.json(errorBody("sign_in_locked", lockedMessage(claim.retryAfterSeconds)), 429, {
        "Retry-After": String(claim.retryAfterSeconds),
      });
    }
    const res = await deps.auth.handler(request);
    const outcome = await signInOutcome(res);
    const settling = settleSignIn(abuse, claim, outcome).catch((err) =>
      deps.logger.error({ err }, "could not settle a sign-in attempt"),
    );
    // A right password's count is gone before the answer. The owner's notice goes out after it,
    // so the failure that starts a pause answers as fast for a known address as an unknown one.
    if (outcome === "right-password") await settling;
    return inOurShape(res);
  });
  return r;
}

/**
 * Better Auth answers these itself; the document lists exactly the allow-list, with the body our
 * own schema checks first (ADR 021). Their answers are Better Auth's.
 */
export function documentAuthRoutes(registry: OpenAPIHono["openAPIRegistry"]) {
  const answer = json(z.record(z.string(), z.unknown()), "Better Auth's answer");
  const tags = ["Auth (Better Auth)"];
  for (const e of REACHABLE_AUTH_ENDPOINTS) {
    const path = `/auth${e.path}`; // the registry is the /api router's
    const description = `Used by: ${e.usedBy}.`;
    if (e.method === "GET") {
      const redirect = e.path.includes("{token}") || e.path === "/verify-email";
      registry.registerPath({
        method: "get",
        path,
        tags,
        description,
        ...(e.path.includes("{token}") ? { request: { params: z.object({ token: z.string() }) } } : {}),
        responses: redirect
          ? { 302: { description: "On to the app's page for the link (with ?error= when it failed)" } }
          : { 200: answer, ...errors(401) },
      });
      continue;
    }
    registry.registerPath({
      method: "post",
      path,
      tags,
      description,
      ...(e.body ? { request: { body: { required: true, content: { "application/json": { schema: e.body } } } } } : {}),
      responses: { 200: answer, ...errors(400, 401, 403, 415, 429) },
    });
  }
}

// Better Auth's error codes, as ours (ADR 018). Anything not listed takes its status's default.
const BETTER_AUTH_CODES: Record<string, ApiErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: "invalid_credentials",
  INVALID_PASSWORD: "invalid_credentials",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "invalid_credentials",
  EMAIL_NOT_VERIFIED: "email_not_verified",
  INVALID_TOKEN: "invalid_token",
  TOKEN_EXPIRED: "token_expired",
  PASSWORD_TOO_SHORT: "validation_failed",
  PASSWORD_TOO_LONG: "validation_failed",
  INVALID_EMAIL: "validation_failed",
  SESSION_EXPIRED: "session_not_fresh",
  SESSION_NOT_FRESH: "session_not_fresh",
  INVALID_CODE: "invalid_code",
  INVALID_BACKUP_CODE: "invalid_code",
  INVALID_TWO_FACTOR_COOKIE: "invalid_code",
  OTP_HAS_EXPIRED: "token_expired",
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "rate_limited",
};

/**
 * Better Auth answers errors as `{ code, message }` with its own upper-case codes; the app and
 * every other client read one shape, so its JSON errors are rewritten into ours. Status and
 * headers (Set-Cookie, Retry-After) stay; redirects and successes pass untouched.
 */
async function inOurShape(res: Response): Promise<Response> {
  if (res.status < 400 || !(res.headers.get("content-type") ?? "").includes("application/json")) return res;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown; message?: unknown } | null;
  if (!body || typeof body !== "object" || "error" in body) return res;
  const theirs = typeof body.code === "string" ? body.code : "";
  const code = BETTER_AUTH_CODES[theirs] ?? defaultErrorCode(res.status);
  const message = typeof body.message === "string" && body.message ? body.message : "Request failed";
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(errorBody(code, message)), { status: res.status, headers });
}

/** What Better Auth's answer says about the password, read from a copy of the response. */
async function signInOutcome(res: Response): Promise<"right-password" | "wrong-password" | "other"> {
  if (res.ok) return "right-password";
  if (res.status === 401) return "wrong-password";
  // Better Auth checks the password before it refuses an unverified address.
  if (res.status === 403) {
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as { code?: string } | null;
    if (body?.code === "EMAIL_NOT_VERIFIED") return "right-password";
  }
  return "other";
}

/**
 * Better Auth reads the client address from one header that only we set: the socket's
 * address, or — behind a proxy we were told to trust — the last hop it appended.
 */
function forwardable(c: Context, trustProxy: boolean, body: string | undefined): Request {
  const ip = clientAddress(c, trustProxy);
  const headers = new Headers(c.req.raw.headers);
  headers.delete(CLIENT_IP_HEADER);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  if (body === undefined) return new Request(c.req.raw, { headers });
  headers.delete("content-length");
  return new Request(c.req.raw.url, { method: c.req.method, headers, body });
}
