import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { type ApiErrorBody, type ApiErrorCode, type ApiErrorIssue, defaultErrorCode } from "../../shared/api-errors.ts";

export type ErrorDetails = { field?: string | undefined; code?: ApiErrorCode; issues?: ApiErrorIssue[] };

/** An error whose message is safe and useful to show to the person who caused it. */
export class HttpError extends Error {
  readonly field: string | undefined;
  readonly code: ApiErrorCode;
  readonly issues: ApiErrorIssue[] | undefined;
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    details: ErrorDetails = {},
  ) {
    super(message);
    this.field = details.field;
    // A 400 that names a field is an invalid input, whoever found it (schema or service).
    this.code = details.code ?? (status === 400 && details.field ? "validation_failed" : defaultErrorCode(status));
    this.issues = details.issues;
  }
}

/** A 429 whose answer says when to try again (Retry-After, in seconds). */
export class RateLimited extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    details: ErrorDetails = {},
  ) {
    super(429, message, { code: "rate_limited", ...details });
  }
}

/** "in 1 minute", "in 12 minutes": a wait told to a person. */
export function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "in a minute" : `in ${minutes} minutes`;
}

export const notFound = (what = "Not found") => new HttpError(404, what);
export const unauthenticated = () => new HttpError(401, "Not authenticated");

/** The JSON body of every API error. */
export function errorBody(
  code: ApiErrorCode,
  message: string,
  extra: { field?: string | undefined; issues?: ApiErrorIssue[] | undefined } = {},
): ApiErrorBody {
  return {
    error: {
      code,
      message,
      ...(extra.field ? { field: extra.field } : {}),
      ...(extra.issues?.length ? { issues: extra.issues } : {}),
    },
  };
}

export function errorResponse(c: Context, err: HttpError) {
  if (err instanceof RateLimited) c.header("Retry-After", String(err.retryAfterSeconds));
  return c.json(errorBody(err.code, err.message, err), err.status);
}

export const invalidJson = () => new HttpError(400, "Request body is not valid JSON", { code: "invalid_json" });

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw validationError(result.error, raw);
}

/** A 400 naming the first bad field (and listing every one) for a value `raw` that failed. */
export function validationError(error: z.ZodError, raw: unknown): HttpError {
  const issues = error.issues.map((i) => {
    const field = i.path.join(".");
    if (i.code === "unrecognized_keys") {
      return { field: i.keys.join(", "), message: `Unknown field: ${i.keys.join(", ")}` };
    }
    if (i.code === "invalid_type" && valueAt(raw, i.path) === undefined) {
      return { field, message: `${field || "Value"} is required` };
    }
    return { field, message: i.message };
  });
  const first = issues[0] ?? { field: "", message: "Invalid input" };
  return new HttpError(400, first.message, { field: first.field || undefined, code: "validation_failed", issues });
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}
