// The API contract (ADR 021). Every /api route is declared with `createRoute`: method, path,
// request (params, query, JSON body) and every response with its schema. The declarations are
// the OpenAPI document served at /api/openapi.json, the app's types are generated from that
// document (src/web/lib/api-schema.gen.ts), and a handler's `c.json(x, status)` must match the
// response it declared, or `npm run typecheck` fails.
//
// Validation failures become the same 400 as everywhere else (`validationError`), a JSON body
// that is not JSON the same `invalid_json`, a body that is not JSON at all the same 415.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { API_ERROR_CODES } from "../../shared/api-errors.ts";
import type { AppVars } from "./context.ts";
import { HttpError, invalidJson, validationError } from "./errors.ts";
import { requireUser } from "./session.ts";

/** A router for one module's /api routes; mounted under /api by `createApi`. */
export function apiRouter() {
  return new OpenAPIHono<AppVars>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, (result as { data?: unknown }).data);
    },
  });
}

export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES),
      message: z.string(),
      field: z.string().optional(),
      issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: "ApiError" });

const ERROR_DESCRIPTIONS = {
  400: "Invalid input: `field` names the first problem, `issues` lists all",
  401: "Not signed in",
  403: "Not allowed",
  404: "Not found (or not yours)",
  409: "Conflicts with the current state",
  413: "Request body too large",
  415: "The body is not JSON",
  429: "Too many requests",
  500: "Failed on our side; trying again may help",
  502: "The payment provider failed",
} as const;
type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** Error responses, all with the one error body. */
export function errors<const S extends ErrorStatus[]>(...statuses: S) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: ERROR_DESCRIPTIONS[s], content: { "application/json": { schema: apiErrorSchema } } },
    ]),
  ) as {
    [K in S[number]]: { description: string; content: { "application/json": { schema: typeof apiErrorSchema } } };
  };
}

/** A JSON response with its schema. */
export function json<const T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } } as const;
}

/** A required JSON request body. */
export function jsonBody<const T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } } as const;
}

/** Our 415 and `invalid_json` before the library's validator sees the body (it caches the parse). */
const jsonOnly: MiddlewareHandler = async (c, next) => {
  if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    throw new HttpError(415, "Send the request body as JSON (Content-Type: application/json)");
  }
  try {
    await c.req.json();
  } catch {
    throw invalidJson();
  }
  await next();
};

/** Signed out is 401 before anything else is looked at (a bad body included). */
const signedIn: MiddlewareHandler<AppVars> = async (c, next) => {
  await requireUser(c);
  await next();
};

/**
 * `createRoute` with our conventions: a route needs a signed-in user (401 first) unless it says
 * `public: true`; a route with a JSON body answers our 415 and `invalid_json`. A body declared
 * with a plain OpenAPI schema (not zod; the cover upload's multipart) is documented only: the
 * handler reads it.
 */
export function apiRoute<const R extends RouteConfig>(config: R & { public?: true }) {
  const { public: isPublic, ...route } = config;
  const middleware = [
    ...(isPublic ? [] : [signedIn]),
    ...(route.request?.body?.content?.["application/json"] ? [jsonOnly] : []),
    ...[route.middleware ?? []].flat(),
  ];
  return createRoute({
    ...route,
    middleware,
    responses: { ...(isPublic ? {} : errors(401)), ...route.responses },
  }) as unknown as R;
}
