// The Better Auth endpoints a request may reach (ADR 044): the allow-list, each entry with the
// screen or mail that needs it, our schema for its body and Better Auth's answer, and how the
// API document lists them (ADR 059). auth.routes.ts serves them.
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import {
  changePasswordSchema,
  confirmPasswordSchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
  sendVerificationSchema,
  signInSchema,
  signUpSchema,
} from "../../../shared/schemas/auth.ts";
import {
  ANYONE,
  errors,
  json,
  operationIdOf,
  SECURITY_SCHEMES,
  SIGNED_IN,
  TWO_FACTOR_SCHEME,
} from "../../http/openapi.ts";

export const AUTH_BASE = "/api/auth";

export type ReachableAuthEndpoint = {
  method: "GET" | "POST";
  /** Under /api/auth; `{token}` is one path segment of letters, digits, `-` and `_`. */
  path: string;
  /** Our schema for the JSON body, checked before Better Auth sees it. */
  body?: z.ZodType;
  /** The body Better Auth reads and checks itself, documented only (when `body` is not ours). */
  documentedBody?: z.ZodType;
  /** Who calls it: a screen of the SPA or a link in a mail. */
  usedBy: string;
  /** The operation's summary in the document. */
  summary: string;
  /** Better Auth's success answer: a JSON body (200), or a redirect (302). */
  answer: z.ZodType | "redirect";
  /** Who may call it; signed in unless said otherwise. */
  access?: "anyone" | "signing-in";
};

// Better Auth's answers, as it sends them (dates are ISO strings; extra fields may come).
const authUserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    image: z.string().nullable().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
    twoFactorEnabled: z.boolean().nullable().optional(),
    role: z.string().nullable().optional(),
    banned: z.boolean().nullable().optional(),
    banReason: z.string().nullable().optional(),
    banExpires: z.string().nullable().optional(),
  })
  .meta({ id: "AuthUser" });
const authSessionSchema = z
  .object({
    id: z.string(),
    token: z.string(),
    userId: z.string(),
    expiresAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    ipAddress: z.string().nullable().optional(),
    userAgent: z.string().nullable().optional(),
    impersonatedBy: z.string().nullable().optional(),
  })
  .meta({ id: "AuthSession" });
const statusSchema = z.object({ status: z.boolean() });
/** Signed in: the session's token (also set as the session cookie) and the account. */
const signedInSchema = z.object({ token: z.string(), user: authUserSchema }).meta({ id: "AuthSignedIn" });
const twoFactorCodeBody = z.object({
  code: z.string().meta({ description: "The authenticator app's 6-digit code, or a backup code" }),
  trustDevice: z.boolean().optional().meta({ description: "Skip the second step on this browser for 30 days" }),
});

/**
 * The allow-list: every Better Auth endpoint a request may reach, each with the screen or mail
 * that needs it. A path is matched exactly as sent (no folding of case, slashes or
 * percent-escapes), so Better Auth only ever sees a path written here.
 */
export const REACHABLE_AUTH_ENDPOINTS: readonly ReachableAuthEndpoint[] = [
  {
    method: "POST",
    path: "/sign-up/email",
    body: signUpSchema,
    usedBy: "sign-up form",
    summary: "Create an account (a verification mail follows; no session until it is confirmed)",
    answer: z.object({ token: z.string().nullable(), user: authUserSchema }),
    access: "anyone",
  },
  {
    method: "POST",
    path: "/sign-in/email",
    body: signInSchema,
    usedBy: "sign-in form",
    summary: "Sign in with email and password",
    answer: z
      .union([
        z.object({ redirect: z.boolean(), token: z.string(), url: z.string().nullish(), user: authUserSchema }),
        z.object({ twoFactorRedirect: z.literal(true), twoFactorMethods: z.array(z.string()).optional() }),
      ])
      .meta({
        description:
          "Signed in (the session cookie is set), or — when the account has two-factor on — `twoFactorRedirect: true` with the two-factor cookie set: finish with /api/auth/two-factor/verify-totp or verify-backup-code.",
      }),
    access: "anyone",
  },
  {
    method: "POST",
    path: "/sign-out",
    usedBy: "the Sign out buttons",
    summary: "Sign out of this browser",
    answer: z.object({ success: z.boolean() }),
  },
  {
    method: "GET",
    path: "/get-session",
    usedBy: "every signed-in screen (who is this?)",
    summary: "The session and account of this browser (null when signed out)",
    answer: z.object({ session: authSessionSchema, user: authUserSchema }).nullable(),
    access: "anyone",
  },
  {
    method: "GET",
    path: "/verify-email",
    usedBy: "the link in the verification mail",
    summary: "Confirm an email address (the link in the mail), then on to the app",
    answer: "redirect",
    access: "anyone",
  },
  {
    method: "POST",
    path: "/send-verification-email",
    body: sendVerificationSchema,
    usedBy: "sign-in form: send a fresh verification link",
    summary: "Send a fresh verification link",
    answer: statusSchema,
    access: "anyone",
  },
  {
    method: "POST",
    path: "/request-password-reset",
    body: requestPasswordResetSchema,
    usedBy: "forgot-password form",
    summary: "Mail a password-reset link (the same answer whether or not the address has an account)",
    answer: z.object({ status: z.boolean(), message: z.string().optional() }),
    access: "anyone",
  },
  {
    method: "GET",
    path: "/reset-password/{token}",
    usedBy: "the link in the password-reset mail",
    summary: "Open a password-reset link, then on to the app's reset form",
    answer: "redirect",
    access: "anyone",
  },
  {
    method: "POST",
    path: "/reset-password",
    body: resetPasswordSchema,
    usedBy: "reset-password form",
    summary: "Set a new password with the token from the reset link",
    answer: statusSchema,
    access: "anyone",
  },
  {
    method: "POST",
    path: "/change-password",
    body: changePasswordSchema,
    usedBy: "Account: change password",
    summary: "Change the password (the current one is asked for)",
    answer: z.object({ token: z.string().nullable(), user: authUserSchema }),
  },
  {
    method: "GET",
    path: "/list-sessions",
    usedBy: "Account: sessions",
    summary: "The account's sessions on every device",
    answer: z.array(authSessionSchema),
  },
  {
    method: "POST",
    path: "/revoke-session",
    documentedBody: z.object({ token: z.string().meta({ description: "A session's token from list-sessions" }) }),
    usedBy: "Account: sign out one device",
    summary: "Sign out one device",
    answer: statusSchema,
  },
  {
    method: "POST",
    path: "/revoke-other-sessions",
    usedBy: "Account: sign out other devices",
    summary: "Sign out every other device",
    answer: statusSchema,
  },
  {
    method: "POST",
    path: "/revoke-sessions",
    usedBy: "Account: sign out everywhere",
    summary: "Sign out everywhere, this browser included",
    answer: statusSchema,
  },
  {
    method: "POST",
    path: "/two-factor/enable",
    documentedBody: confirmPasswordSchema,
    usedBy: "Account: turn on two-factor",
    summary: "Start turning on two-factor: the authenticator's URI and backup codes",
    answer: z
      .object({ totpURI: z.string(), backupCodes: z.array(z.string()) })
      .meta({ description: "Two-factor is on once verify-totp accepts a code from the authenticator app" }),
  },
  {
    method: "POST",
    path: "/two-factor/disable",
    documentedBody: confirmPasswordSchema,
    usedBy: "Account: turn off two-factor",
    summary: "Turn off two-factor",
    answer: statusSchema,
  },
  {
    method: "POST",
    path: "/two-factor/generate-backup-codes",
    documentedBody: confirmPasswordSchema,
    usedBy: "Account: new backup codes",
    summary: "New backup codes (the old ones stop working)",
    answer: z.object({ status: z.boolean(), backupCodes: z.array(z.string()) }),
  },
  {
    method: "POST",
    path: "/two-factor/verify-totp",
    documentedBody: twoFactorCodeBody,
    usedBy: "sign-in's second step; two-factor setup",
    summary: "A code from the authenticator app: finishes a sign-in, or turns two-factor on",
    answer: signedInSchema,
    access: "signing-in",
  },
  {
    method: "POST",
    path: "/two-factor/verify-backup-code",
    documentedBody: twoFactorCodeBody,
    usedBy: "sign-in's second step with a backup code",
    summary: "A backup code instead: finishes a sign-in",
    answer: signedInSchema,
    access: "signing-in",
  },
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

/** Where a redirect from one of Better Auth's links goes. */
const REDIRECT = { description: "On to the app's page for the link (with ?error= when it failed)" };

/** Every answer an allow-listed endpoint may give, as the document declares it. */
export function authResponses(e: ReachableAuthEndpoint): RouteConfig["responses"] {
  if (e.answer === "redirect") return { 302: REDIRECT, ...errors(400, 404) };
  return {
    200: json(e.answer, "Better Auth's answer"),
    ...(e.method === "POST" ? errors(400, 415) : {}),
    ...errors(401, 403, 404, 429),
  };
}

/**
 * Better Auth answers these itself; the document lists exactly the allow-list, with the body our
 * own schema checks first (or the one Better Auth reads) and Better Auth's answers (ADR 021,
 * ADR 059). The session cookies are the document's security schemes.
 */
export function documentAuthRoutes(registry: OpenAPIHono["openAPIRegistry"]) {
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    registry.registerComponent("securitySchemes", name, scheme);
  }
  const tags = ["Auth (Better Auth)"];
  for (const e of REACHABLE_AUTH_ENDPOINTS) {
    const method = e.method === "GET" ? "get" : "post";
    const body = e.body ?? e.documentedBody;
    registry.registerPath({
      method,
      path: `/auth${e.path}`, // the registry is the /api router's
      operationId: operationIdOf(method, `/auth${e.path}`),
      summary: e.summary,
      description: `Used by: ${e.usedBy}.`,
      tags,
      security:
        e.access === "anyone"
          ? ANYONE
          : e.access === "signing-in"
            ? [...SIGNED_IN, { [TWO_FACTOR_SCHEME]: [] }]
            : SIGNED_IN,
      ...(e.path.includes("{token}") ? { request: { params: z.object({ token: z.string() }) } } : {}),
      ...(body ? { request: { body: { required: true, content: { "application/json": { schema: body } } } } } : {}),
      responses: authResponses(e),
    });
  }
}
