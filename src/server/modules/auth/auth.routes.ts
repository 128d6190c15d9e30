// Better Auth answers /api/auth/*. The forms that take free input are checked against our
// own strict schemas first, so bad input gets the same 400 shape as the rest of the API.
import { getConnInfo } from "@hono/node-server/conninfo";
import { type Context, Hono } from "hono";
import type { z } from "zod";
import {
  changePasswordSchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
  sendVerificationSchema,
  signInSchema,
  signUpSchema,
} from "../../../shared/schemas/auth.ts";
import type { AppVars } from "../../http/context.ts";
import { HttpError, parseWith } from "../../http/errors.ts";
import { CLIENT_IP_HEADER } from "./auth.ts";

const CHECKED: Record<string, z.ZodType> = {
  "/api/auth/sign-up/email": signUpSchema,
  "/api/auth/sign-in/email": signInSchema,
  "/api/auth/request-password-reset": requestPasswordResetSchema,
  "/api/auth/reset-password": resetPasswordSchema,
  "/api/auth/change-password": changePasswordSchema,
  "/api/auth/send-verification-email": sendVerificationSchema,
};

export function authRoutes() {
  const r = new Hono<AppVars>();
  r.on(["GET", "POST"], "/auth/*", async (c) => {
    const schema = c.req.method === "POST" ? CHECKED[c.req.path] : undefined;
    let body: string | undefined;
    if (schema) {
      if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) {
        throw new HttpError(415, "Send the request body as JSON (Content-Type: application/json)");
      }
      body = await c.req.text();
      let raw: unknown;
      try {
        raw = JSON.parse(body);
      } catch {
        throw new HttpError(400, "Request body is not valid JSON");
      }
      body = JSON.stringify(parseWith(schema, raw));
    }
    const deps = c.get("deps");
    return deps.auth.handler(forwardable(c, deps.env.trustProxy, body));
  });
  return r;
}

/**
 * Better Auth reads the client address from one header that only we set: the socket's
 * address, or — behind a proxy we were told to trust — the last hop it appended.
 */
function forwardable(c: Context, trustProxy: boolean, body: string | undefined): Request {
  let ip: string | undefined;
  if (trustProxy) {
    const forwarded = c.req
      .header("x-forwarded-for")
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    ip = forwarded?.at(-1);
  }
  if (!ip) {
    try {
      ip = getConnInfo(c).remote.address;
    } catch {
      ip = undefined;
    }
  }
  const headers = new Headers(c.req.raw.headers);
  headers.delete(CLIENT_IP_HEADER);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  if (body === undefined) return new Request(c.req.raw, { headers });
  headers.delete("content-length");
  return new Request(c.req.raw.url, { method: c.req.method, headers, body });
}
