// The first look at every request on every host, before any route reads it (ADR 049):
//  - a body limit for everything but the upload routes (which apply their own, larger one): 100 KB
//    under /api, 64 KB for the forms everywhere else; a declared Content-Length over it is refused
//    at once, a chunked body as soon as it grows past it, and nothing past the limit is buffered;
//  - a NUL character anywhere in what we read as text (path, query, cookies, JSON strings and keys
//    at any depth, form fields) is refused with a 400 that changes nothing: PostgreSQL cannot
//    store U+0000 in text, so further in it would be a 500, or a lookup that fails oddly.
// Binary data is never judged: an upload's file part may hold any byte.

import { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { BodyTooLarge, readBounded, readNodeBounded } from "../lib/bounded-body.ts";
import { errorBody } from "./errors.ts";
import { UPLOAD_PATH } from "./uploads.ts";

/** Every /api body but uploads: JSON of any form in the app, a Stripe event, a Better Auth call. */
export const API_BODY_LIMIT = 100 * 1024;
/** Everything else takes HTML forms (tenant sites, marketing, sandbox billing): a few KB each. */
export const FORM_BODY_LIMIT = 64 * 1024;

/** The body limit of a request to `path` (uploads are not judged here: they apply their own). */
export const bodyLimitFor = (path: string) => (path.startsWith("/api/") ? API_BODY_LIMIT : FORM_BODY_LIMIT);

export const NUL_MESSAGE =
  "The request contains a NUL character (\\u0000), which we cannot accept. Nothing was changed.";

const PERCENT_NUL = /%00/;

/** The path (a.b.0.c) of the first key or string holding a NUL, or null when there is none. */
export function nulInJson(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") return value.includes("\0") ? path.join(".") : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = nulInJson(v, [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes("\0")) return [...path, k.replaceAll("\0", "")].join(".");
      const found = nulInJson(v, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Where a NUL is in a body we read as text: a field name, "" for somewhere unnamed, or null. */
async function nulInBody(bytes: Uint8Array<ArrayBuffer>, type: string): Promise<string | null> {
  const t = type.toLowerCase();
  if (t.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "content-type": type } }).formData();
    } catch {
      return null; // unreadable: the route says so in its own words
    }
    for (const [k, v] of form) {
      if (k.includes("\0")) return "";
      // A file's bytes are data, not text: only its name is read as text.
      if (typeof v === "string" ? v.includes("\0") : v.name.includes("\0")) return k;
    }
    return null;
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (t.includes("json")) {
    if (text.includes("\0")) return "";
    // Only an escape can carry one; "\\u0000" (an escaped backslash) is no NUL, so parse to know.
    if (!/\\u0000/i.test(text)) return null;
    try {
      return nulInJson(JSON.parse(text));
    } catch {
      return null; // not JSON: the route answers invalid_json
    }
  }
  if (t.startsWith("application/x-www-form-urlencoded")) {
    if (!text.includes("\0") && !PERCENT_NUL.test(text)) return null;
    for (const [k, v] of new URLSearchParams(text)) {
      if (k.includes("\0")) return "";
      if (v.includes("\0")) return k;
    }
    return text.includes("\0") ? "" : null;
  }
  // Any other text we might read (text/plain, no type at all), which a parser may take for JSON.
  if (t === "" || t.startsWith("text/")) {
    if (text.includes("\0")) return "";
    if (!/\\u0000/i.test(text)) return null;
    try {
      return nulInJson(JSON.parse(text));
    } catch {
      return null;
    }
  }
  return null;
}

const wantsJson = (c: Context) =>
  c.req.path.startsWith("/api/") || (c.req.header("accept") ?? "").toLowerCase().includes("application/json");

function refuseNul(c: Context, field: string) {
  if (wantsJson(c)) return c.json(errorBody("bad_request", NUL_MESSAGE, { field: field || undefined }), 400);
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Something in the form could not be read</title></head>` +
      `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5">` +
      `<h1 style="font-size:1.4rem">Something in the form could not be read</h1>` +
      `<p>What was sent contains an invisible NUL character, which we cannot accept. Nothing was sent or changed.</p>` +
      `<p>Please go back, retype the text (rather than pasting it) and try again.</p></body></html>`,
    400,
    { "Cache-Control": "no-store" },
  );
}

function refuseTooLarge(c: Context, limit: number) {
  const kb = Math.round(limit / 1024);
  // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
  const headers = { Connection: "close", "Cache-Control": "no-store" };
  if (wantsJson(c)) {
    return c.json(errorBody("payload_too_large", `Request body is too large (limit ${kb} KB)`), 413, headers);
  }
  return c.text(`The form is too large (limit ${kb} KB). Nothing was sent.\n`, 413, headers);
}

/**
 * Node's request behind `c` (Hono's Node adapter passes it as `env.incoming`) when its body is
 * still unread; undefined elsewhere (`app.request` in tests), where the body is read as a stream.
 */
function unreadNodeRequest(c: Context): (IncomingMessage & { rawBody?: Buffer }) | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage) || incoming.readableDidRead || "rawBody" in incoming) return undefined;
  return incoming;
}

export function inputGuard(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const at = url.indexOf("/", url.indexOf("//") + 2);
    const target = at < 0 ? "" : url.slice(at);
    if (target.includes("\0") || PERCENT_NUL.test(target)) return refuseNul(c, "");
    // Cookies are read decoded (a session token, the consent choice).
    if (PERCENT_NUL.test(c.req.header("cookie") ?? "")) return refuseNul(c, "");

    // A GET or HEAD never carries a body here (Node's adapter gives them none); asking for
    // `body` would build the whole Request object for nothing, on every page and API read.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (UPLOAD_PATH.test(c.req.path)) return next();
    const limit = bodyLimitFor(c.req.path);
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined && Number(declared) > limit) {
      return refuseTooLarge(c, limit);
    }
    const incoming = unreadNodeRequest(c);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      if (incoming) {
        // Node's socket chunks are plain ArrayBuffer memory (never shared).
        incoming.rawBody = await readNodeBounded(incoming, limit);
        bytes = incoming.rawBody as Uint8Array<ArrayBuffer>;
      } else {
        const raw = c.req.raw;
        if (!raw.body) return next();
        bytes = await readBounded(raw.body, limit);
      }
    } catch (err) {
      if (err instanceof BodyTooLarge) return refuseTooLarge(c, limit);
      throw err;
    }
    const field = await nulInBody(bytes, c.req.header("content-type") ?? "");
    if (field !== null) return refuseNul(c, field);
    // The routes read the body as if nothing had: the bytes, already counted, go back in. From
    // Node's server they are the request's `rawBody` (above), which Hono's Node adapter reads in
    // place of the stream: no Request object or web stream is built around them.
    if (!incoming) c.req.raw = new Request(c.req.raw, { body: bytes });
    return next();
  };
}
