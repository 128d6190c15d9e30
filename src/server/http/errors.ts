import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

/** An error whose message is safe and useful to show to the person who caused it. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const notFound = (what = "Not found") => new HttpError(404, what);
export const unauthenticated = () => new HttpError(401, "Not authenticated");

export type ErrorBody = { error: { message: string; field?: string; issues?: { field: string; message: string }[] } };

export function errorResponse(c: Context, err: HttpError) {
  const body: ErrorBody = { error: { message: err.message, ...(err.field ? { field: err.field } : {}) } };
  return c.json(body, err.status);
}

/** Parse a JSON body against a schema; any problem becomes a 400 that names the field. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new HttpError(415, "Send the request body as JSON (Content-Type: application/json)");
  }
  try {
    raw = await c.req.json();
  } catch {
    throw new HttpError(400, "Request body is not valid JSON");
  }
  return parseWith(schema, raw);
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => {
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
  const err = new HttpError(400, first.message, first.field || undefined);
  (err as HttpError & { issues?: typeof issues }).issues = issues;
  throw err;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}
