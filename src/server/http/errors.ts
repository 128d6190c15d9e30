import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import {
  type ApiErrorBody,
  type ApiErrorCode,
  type ApiErrorIssue,
  defaultErrorCode,
  statusOf,
} from "../../shared/api-errors.ts";
import { DomainError, RateLimited } from "../lib/domain-error.ts";

export type ErrorDetails = { field?: string | undefined; code?: ApiErrorCode; issues?: ApiErrorIssue[] };

/**
 * A refusal of the transport itself (a body that is not JSON, no session, a webhook's bad
 * signature), thrown by routes and http/: it names its status. Services and lib throw
 * DomainError instead, whose status comes from its code (`statusOf`, ADR 058).
 */
export class HttpError extends DomainError {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    details: ErrorDetails = {},
  ) {
    // A 400 that names a field is an invalid input, whoever found it (schema or route).
    super(details.code ?? (status === 400 && details.field ? "validation_failed" : defaultErrorCode(status)), message, {
      field: details.field,
      issues: details.issues,
    });
    this.name = "HttpError";
  }
}

/** The status a refusal is answered with: a transport's own, or its code's (the one table). */
export function httpStatusOf(err: DomainError): ContentfulStatusCode {
  return err instanceof HttpError ? err.status : statusOf(err.code);
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

/** The API's answer to a refusal: the one error body, its status, and Retry-After when it has a wait. */
export function errorResponse(c: Context, err: DomainError) {
  if (err instanceof RateLimited) c.header("Retry-After", String(err.retryAfterSeconds));
  return c.json(errorBody(err.code, err.message, err), httpStatusOf(err));
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
