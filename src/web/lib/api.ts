// One fetch helper for our own /api: same-origin cookies, JSON in and out, and errors that
// carry the server's message, status and code (src/shared/api-errors.ts): screens switch on the
// code, the query client decides about retries by status.
import { type ClientResponse, hc } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { Api } from "../../app/api.ts";
import type { ApiErrorCode } from "../../shared/api-errors.ts";

export const UNEXPECTED_ERROR = "An unexpected error occurred";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
    /** Absent only when the answer was not one of ours (a proxy's error page, say). */
    readonly code?: ApiErrorCode,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * The API, typed by the server's route declarations (ADR 021): paths, params, bodies and answers
 * come from `src/app/api.ts`, so a server change the app does not follow fails the typecheck.
 * Call through `read`: `const { posts } = await read(client.api.posts.$get())`.
 */
export const client = hc<Api>("/", { init: { credentials: "same-origin" } }).api;

/** The body of a success answer to the request `R`. */
type Answer<R> = R extends ClientResponse<infer T, infer S, "json"> ? (S extends SuccessStatusCode ? T : never) : never;

/** The answer's body when the status is a success (null for 204); an `ApiError` otherwise. */
export async function read<R extends ClientResponse<unknown, number, "json">>(request: Promise<R>): Promise<Answer<R>> {
  return (await settle(await request)) as never;
}

/** One member of the answer's body, as `read` gives it: `readField(client.posts.$get(), "posts")`. */
export async function readField<R extends ClientResponse<unknown, number, "json">, K extends keyof Answer<R>>(
  request: Promise<R>,
  key: K,
): Promise<Answer<R>[K]> {
  return (await read(request))[key];
}

/**
 * The options of an upload route's call: multipart (the browser sets the boundary), the form the
 * request's own body: `read(client.profile.photo.$post({}, fileUpload(file)))`.
 */
export function fileUpload(file: File) {
  const form = new FormData();
  form.append("file", file);
  return { init: { body: form, credentials: "same-origin" } } as const;
}

/** Errors become `ApiError` with the server's message, field and code; success is the JSON body. */
async function settle(res: Response | ClientResponse<unknown>): Promise<unknown> {
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const body = data as { error?: { message?: string; field?: string; code?: ApiErrorCode }; message?: string } | null;
    throw new ApiError(
      body?.error?.message ?? body?.message ?? UNEXPECTED_ERROR,
      res.status,
      body?.error?.field,
      body?.error?.code,
    );
  }
  return data;
}

/** The message to show for any error: the server's words when it gave some. */
export function errorMessage(error: unknown, fallback = UNEXPECTED_ERROR): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
