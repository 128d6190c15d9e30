// The API contract (ADR 021). Every /api route is declared with `createRoute`: method, path,
// request (params, query, JSON body) and every response with its schema. The declarations are
// the OpenAPI document served at /api/openapi.json; the app's client is typed by the same
// declarations (`hc<Api>`, src/web/lib/api.ts), so a handler's `c.json(x, status)` must match the
// response it declared, or `npm run typecheck` fails. In tests (NODE_ENV=test) every answer is
// also checked at run time against the schema declared for its status (ADR 059).
//
// Validation failures become the same 400 as everywhere else (`validationError`), a JSON body
// that is not JSON the same `invalid_json`, a body that is not JSON at all the same 415.
// Operations need the session cookie (`security: [{ session: [] }]`) unless `public: true`.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { API_ERROR_CODES } from "../../shared/api-errors.ts";
import type { AppVars } from "./context.ts";
import { errorBody, HttpError, invalidJson, validationError } from "./errors.ts";
import { requireUser } from "./session.ts";

/**
 * The session cookie Better Auth sets at sign-in. Over https (every deployment) the browser gets
 * it as `__Secure-better-auth.session_token`; over plain http (development, tests) without the
 * prefix.
 */
export const SESSION_SCHEME = "session";
/** The short-lived cookie between a sign-in's password step and its second step (two-factor). */
export const TWO_FACTOR_SCHEME = "twoFactorPending";

export const SECURITY_SCHEMES = {
  [SESSION_SCHEME]: {
    type: "apiKey",
    in: "cookie",
    name: "__Secure-better-auth.session_token",
    description:
      "The session cookie set by /api/auth/sign-in/email (or the two-factor step that finishes a sign-in). Named `better-auth.session_token` when the app is served over plain http (development).",
  },
  [TWO_FACTOR_SCHEME]: {
    type: "apiKey",
    in: "cookie",
    name: "__Secure-better-auth.two_factor",
    description:
      "Set by /api/auth/sign-in/email when the account has two-factor on (`twoFactorRedirect: true`); sent with /api/auth/two-factor/verify-totp or verify-backup-code to finish the sign-in. `better-auth.two_factor` over plain http.",
  },
} as const;

/** Who may call an operation: signed in (the session cookie), or anyone (`[]`). */
export const SIGNED_IN = [{ [SESSION_SCHEME]: [] }];
export const ANYONE = [];

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

/** The `{id}` of a path: read as text, each route's own check makes one that is no row's a 404. */
export const idParams = z.object({ id: z.string() });

/** The `{name}`s of a path, as a type. */
type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNames<Rest>
  : never;

/** A path's parameters, each read as text (as `idParams`). */
function textParams(path: string) {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) : undefined;
}

/** A JSON response with its schema. */
export function json<const T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } } as const;
}

/** A file sent as it is, a download (`application/zip`, `application/gzip`). */
export function fileAnswer(mediaType: string, description: string) {
  return { description, content: { [mediaType]: { schema: { type: "string", format: "binary" } } } } as const;
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

/** `get /books/{id}/cover` → `getBooksByIdCover`: a stable name for generated clients. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split("/")
    .filter(Boolean)
    .map((segment) => segment.replace(/^\{(.+)\}$/, "by-$1"))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join("");
}

type Responses = RouteConfig["responses"];
type Answer = Responses[string];
type Method = "get" | "post" | "put" | "patch" | "delete";
/** A request body that is documented only (not zod): the handler reads it (an upload's multipart). */
type DocumentedBody = { required?: boolean; content: Record<string, { schema: unknown }> };

/** What a route says about itself; `routes(…)` derives the rest (see there). */
export type Declaration = {
  summary: string;
  description?: string;
  public?: true;
  /** The path's parameters when one is not plain text (an enum, say). */
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body's schema, or a documented-only body (`uploadBody`). */
  body?: z.ZodType | DocumentedBody;
  middleware?: MiddlewareHandler<AppVars>[];
  /** The success answers, by status: `{ 201: json(…) }`, `{ 204: { description: "Deleted" } }`. */
  ok: { 200?: Answer; 201?: Answer; 204?: Answer };
  /** The error answers nothing here derives: 403, 409, 429, 502… */
  errors?: ErrorStatus[];
};

type Nothing = Record<never, never>;
type RequestOf<P extends string, D extends Declaration> = (D extends { params: infer X extends z.ZodType }
  ? { params: X }
  : [PathParamNames<P>] extends [never]
    ? Nothing
    : { params: z.ZodObject<{ [K in PathParamNames<P>]: z.ZodString }> }) &
  (D extends { query: infer Q extends z.ZodType } ? { query: Q } : Nothing) &
  (D extends { body: infer B } ? { body: B extends z.ZodType ? ReturnType<typeof jsonBody<B>> : B } : Nothing);

type ErrorsOf<D extends Declaration> = D extends { errors: (infer S extends ErrorStatus)[] } ? S : never;
/** 404 where a path has text parameters: a value that is no row's (or not the caller's) is not found. */
type NotFoundOf<P extends string, D extends Declaration> = D extends { params: z.ZodType }
  ? never
  : [PathParamNames<P>] extends [never]
    ? never
    : 404;

/** The route `routes(…)` makes, typed as `.openapi(route, handler)` reads it. */
export type DeclaredRoute<M extends Method, P extends string, D extends Declaration, E extends ErrorStatus> = {
  method: M;
  path: P;
  request: RequestOf<P, D>;
  responses: D["ok"] & ReturnType<typeof errors<(ErrorsOf<D> | NotFoundOf<P, D> | E)[]>>;
};

/**
 * Why `res` is not an answer that `responses` declares, or undefined when it is one: its status
 * is declared (a 500 always may be: it carries the error body), its media type is declared for
 * that status, and a JSON body parses with the declared zod schema. Redirects' bodies are not
 * read; a body documented with a plain OpenAPI schema (not zod) is not checked.
 */
export async function answerMismatch(responses: Responses, res: Response): Promise<string | undefined> {
  if (res.status === 500) return undefined;
  const declared = (responses as Record<string, unknown>)[String(res.status)] ?? responses.default;
  if (!declared) return `status ${res.status} is not declared`;
  if (res.status >= 300 && res.status < 400) return undefined;
  const content = (declared as { content?: Record<string, { schema?: unknown }> }).content ?? {};
  const type = (res.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!type || res.status === 204) {
    return Object.keys(content).length && res.body ? `${res.status} declares ${Object.keys(content)}` : undefined;
  }
  const media = content[type];
  if (!media) return `${res.status} answered ${type}, declared ${Object.keys(content).join(", ") || "no body"}`;
  if (type !== "application/json" || !(media.schema instanceof z.ZodType)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(await res.clone().text());
  } catch {
    return `${res.status}'s body is not JSON`;
  }
  const result = media.schema.safeParse(body);
  return result.success ? undefined : `${res.status}'s body: ${z.prettifyError(result.error)}`;
}

/** The 500 a test sees when an answer is not what the document declares. */
export function mismatchResponse(problem: string): Response {
  const body = errorBody("internal_error", `The answer does not match the API document: ${problem}`);
  return new Response(JSON.stringify(body), { status: 500, headers: { "content-type": "application/json" } });
}

/** In tests, an answer that is not what the route declares becomes a 500 that says why (and a log line). */
function answersAsDeclared(responses: Responses): MiddlewareHandler<AppVars> {
  return async (c, next) => {
    await next();
    const deps = c.get("deps");
    if (deps?.env.nodeEnv !== "test") return;
    const problem = await answerMismatch(responses, c.res);
    if (!problem) return;
    deps.logger.error({ problem, method: c.req.method, path: c.req.path }, "answer does not match the API document");
    c.res = undefined;
    c.res = mismatchResponse(`${c.req.method} ${c.req.path}: ${problem}`);
  };
}

/**
 * `createRoute` with our conventions: a route needs a signed-in user (401 first) unless it says
 * `public: true`; a route with a JSON body answers our 415 and `invalid_json`; a route with
 * parameters or a body answers our 400. Each operation gets its `security` and an `operationId`.
 * A body declared with a plain OpenAPI schema (not zod; the cover upload's multipart) is
 * documented only: the handler reads it.
 */
export function apiRoute<const R extends RouteConfig>(config: R & { public?: true }) {
  const { public: isPublic, ...route } = config;
  const takesJson = Boolean(route.request?.body?.content?.["application/json"]);
  const validates = Boolean(route.request?.params || route.request?.query || route.request?.body);
  const responses = {
    ...(isPublic ? {} : errors(401)),
    ...(validates ? errors(400) : {}),
    ...(takesJson ? errors(415) : {}),
    ...route.responses,
  };
  const middleware = [
    answersAsDeclared(responses),
    ...(isPublic ? [] : [signedIn]),
    ...(takesJson ? [jsonOnly] : []),
    ...[route.middleware ?? []].flat(),
  ];
  return createRoute({
    operationId: operationIdOf(route.method, route.path),
    security: isPublic ? ANYONE : SIGNED_IN,
    ...route,
    middleware,
    responses,
  }) as unknown as R;
}

/**
 * Routes of one module, declared by what only they can say; the rest is derived the same way
 * for all. `route.patch("/books/{id}", { summary, body: bookUpdateSchema, ok: { 200: oneBook },
 * errors: [403, 409] })` is `apiRoute` with the module's tags (and its gate, `middleware`, and
 * the errors that gate answers, `errors`), the body as `jsonBody` (a zod schema; any other body
 * is documented only), each `{name}` of the path read as text unless `params` says otherwise,
 * and the answers `ok` lists, plus: 404 for a path with text parameters (the route's own check
 * makes a value that is no row's, or not the caller's, not found), and what `apiRoute` adds
 * (401 unless public, 400 for input, 415 for a JSON body).
 */
export function routes<const E extends ErrorStatus = never>(defaults: {
  tags: string[];
  middleware?: MiddlewareHandler<AppVars>[];
  errors?: E[];
}) {
  const declare =
    <M extends Method>(method: M) =>
    <const P extends string, const D extends Declaration>(path: P, declaration: D) => {
      const { summary, description, public: isPublic, params, query, body, middleware, ok } = declaration;
      const pathParams = params ?? textParams(path);
      const request = {
        ...(pathParams ? { params: pathParams } : {}),
        ...(query ? { query } : {}),
        ...(body ? { body: body instanceof z.ZodType ? jsonBody(body) : body } : {}),
      };
      const statuses = [
        ...(params || !pathParams ? [] : [404]),
        ...(defaults.errors ?? []),
        ...(declaration.errors ?? []),
      ];
      return apiRoute({
        method,
        path,
        tags: defaults.tags,
        summary,
        ...(description ? { description } : {}),
        ...(isPublic ? { public: isPublic } : {}),
        ...(Object.keys(request).length ? { request } : {}),
        middleware: [...(defaults.middleware ?? []), ...(middleware ?? [])],
        responses: { ...ok, ...errors(...(statuses as ErrorStatus[])) },
      } as RouteConfig) as unknown as DeclaredRoute<M, P, D, E>;
    };
  /**
   * A record read and saved at one path, answering the same schema both ways (a settings page,
   * a book's retailer links): `get` reads it, `save` (`put` or `patch`) takes `body` and answers
   * the record as saved.
   */
  const record = <
    const M extends "put" | "patch",
    const P extends string,
    const A extends Answer,
    const B extends z.ZodType,
  >(
    method: M,
    path: P,
    r: { answer: A; read: string; save: string; body: B },
  ) => ({
    get: declare("get")(path, { summary: r.read, ok: { 200: r.answer } }),
    save: declare(method)(path, { summary: r.save, body: r.body, ok: { 200: r.answer } }),
  });
  return {
    get: declare("get"),
    post: declare("post"),
    put: declare("put"),
    patch: declare("patch"),
    delete: declare("delete"),
    record,
  };
}
