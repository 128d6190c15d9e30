// Better Auth answers /api/auth/*. The forms that take free input are checked against our
// own strict schemas first, so bad input gets the same 400 shape as the rest of the API.
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
  updateUserSchema,
} from "../../../shared/schemas/auth.ts";
import type { AppVars } from "../../http/context.ts";
import { errorBody, HttpError, invalidJson, parseWith } from "../../http/errors.ts";
import { clientAddress } from "../../http/host.ts";
import { errors, json } from "../../http/openapi.ts";
import { claimSignInAttempt, lockedMessage, settleSignIn } from "./account-abuse.service.ts";
import { CLIENT_IP_HEADER } from "./auth.ts";

const CHECKED: Record<string, z.ZodType> = {
  "/api/auth/sign-up/email": signUpSchema,
  "/api/auth/sign-in/email": signInSchema,
  "/api/auth/request-password-reset": requestPasswordResetSchema,
  "/api/auth/reset-password": resetPasswordSchema,
  "/api/auth/change-password": changePasswordSchema,
  "/api/auth/send-verification-email": sendVerificationSchema,
  "/api/auth/update-user": updateUserSchema,
};

const SIGN_IN = "/api/auth/sign-in/email";

/**
 * The key our checks look a path up by. Better Auth's router answers 404 to a doubled or
 * trailing slash today (skipTrailingSlashes is off); folding them here means a later change of
 * that setting cannot let `/api/auth/update-user/` past the schema.
 */
function routeKey(path: string): string {
  return path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
}

export function authRoutes() {
  const r = new Hono<AppVars>();
  r.on(["GET", "POST"], "/auth/*", async (c) => {
    const key = routeKey(c.req.path);
    const schema = c.req.method === "POST" ? CHECKED[key] : undefined;
    let body: string | undefined;
    let parsed: unknown;
    if (schema) {
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
      parsed = parseWith(schema, raw);
      body = JSON.stringify(parsed);
    }
    const deps = c.get("deps");
    const request = forwardable(c, deps.env.trustProxy, body);
    if (key !== SIGN_IN || c.req.method !== "POST") return inOurShape(await deps.auth.handler(request));

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
 * Better Auth answers these itself; the document lists the ones the app uses, with the body our
 * own schema checks first (ADR 021). Their answers are Better Auth's.
 */
export function documentAuthRoutes(registry: OpenAPIHono["openAPIRegistry"]) {
  const answer = json(z.record(z.string(), z.unknown()), "Better Auth's answer");
  const tags = ["Auth (Better Auth)"];
  for (const [path, schema] of Object.entries(CHECKED)) {
    registry.registerPath({
      method: "post",
      path: path.replace(/^\/api/, ""), // the registry is the /api router's
      tags,
      request: { body: { required: true, content: { "application/json": { schema } } } },
      responses: { 200: answer, ...errors(400, 401, 403, 415, 429) },
    });
  }
  registry.registerPath({ method: "get", path: "/auth/get-session", tags, responses: { 200: answer } });
  registry.registerPath({ method: "post", path: "/auth/sign-out", tags, responses: { 200: answer } });
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
