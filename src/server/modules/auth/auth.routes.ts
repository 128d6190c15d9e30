import { type Context, Hono } from "hono";
import type { z } from "zod";
import { type ApiErrorCode, defaultErrorCode } from "../../../shared/api-errors.ts";
import type { signUpSchema } from "../../../shared/schemas/auth.ts";
import type { AppVars } from "../../http/context.ts";
import { errorBody, HttpError, invalidJson, notFound, parseWith } from "../../http/errors.ts";
import { answerMismatch, mismatchResponse } from "../../http/openapi.ts";
import { clientAddress } from "../../lib/client-address.ts";
import { claimSignInAttempt, hasAccount, lockedMessage, settleSignIn } from "./account-abuse.service.ts";
import { CLIENT_IP_HEADER } from "./auth.ts";
import { AUTH_BASE, authResponses, type ReachableAuthEndpoint, reachableAuthEndpoint } from "./auth-endpoints.ts";

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
    return asDocumented(c, endpoint, await answer(c, endpoint));
  });
  async function answer(c: Context<AppVars>, endpoint: ReachableAuthEndpoint): Promise<Response> {
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
  }
  return r;
}

/** In tests, an answer of Better Auth's that is not what the document declares is a 500 (ADR 059). */
async function asDocumented(c: Context<AppVars>, e: ReachableAuthEndpoint, res: Response): Promise<Response> {
  const deps = c.get("deps");
  if (deps.env.nodeEnv !== "test") return res;
  const problem = await answerMismatch(authResponses(e), res);
  if (!problem) return res;
  deps.logger.error({ problem, path: c.req.path }, "answer does not match the API document");
  return mismatchResponse(`${c.req.method} ${AUTH_BASE}${e.path}: ${problem}`);
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
