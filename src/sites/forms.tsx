// The forms a public site accepts by POST: here the body is read, within its limit, and handed to
// the page kind that takes it (routes.ts: the cookie banner's choice, contact, newsletter, release
// alerts, the confirmation links). Checking, limits, storing and mail are the services'.
import type { Context } from "hono";
import { BodyTooLarge, readBounded } from "../server/lib/bounded-body.ts";
import { clientAddress } from "../server/lib/client-address.ts";
import { type Answer, formNotAllowed, personal, plain } from "./answer.tsx";
import type { Out } from "./document.tsx";
import { pageFor } from "./routes.ts";
import type { SiteVars } from "./site-request.ts";

const MAX_FORM_BYTES = 64 * 1024;

/**
 * Reads a public form's body within MAX_FORM_BYTES (`readBounded`): a declared Content-Length over
 * the limit and a chunked body that grows past it are refused alike (BodyTooLarge), and nothing
 * past the limit is ever buffered. Any other unreadable body counts as an empty form.
 */
async function readForm(c: Context<SiteVars>): Promise<Record<string, string>> {
  if (Number(c.req.header("content-length") ?? 0) > MAX_FORM_BYTES) throw new BodyTooLarge();
  const read = await readBounded(c.req.raw.body, MAX_FORM_BYTES);
  const bytes = Buffer.from(read.buffer, read.byteOffset, read.byteLength);
  const type = c.req.header("content-type") ?? "";
  try {
    if (/^application\/x-www-form-urlencoded/i.test(type)) {
      return Object.fromEntries(new URLSearchParams(bytes.toString("utf8")));
    }
    if (/^multipart\/form-data/i.test(type)) {
      const form = await new Response(bytes, { headers: { "content-type": type } }).formData();
      const out: Record<string, string> = {};
      for (const [k, v] of form) if (typeof v === "string") out[k] = v;
      return out;
    }
  } catch {
    // A malformed body is an empty form: the form's own checks give the reader a message.
  }
  return {};
}

/**
 * The answer to a POST to a site that exists and is not expired: the form is read (whatever the
 * path, so that an oversized body is refused alike), then the page kind that takes it answers.
 */
export async function answerForm(a: Answer): Promise<Out> {
  const { c } = a;
  let fields: Record<string, string>;
  try {
    fields = await readForm(c);
  } catch (err) {
    if (!(err instanceof BodyTooLarge)) throw err;
    // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
    return personal(
      plain(413, `The form is too large (limit ${MAX_FORM_BYTES / 1024} KB). Nothing was sent.\n`, {
        "Content-Type": "text/plain; charset=UTF-8",
        Connection: "close",
      }),
    );
  }
  const found = pageFor("post", a.path, a.env);
  if (!found?.kind.post) return formNotAllowed();
  const ip = clientAddress(c, a.deps.env.trustProxy) ?? "unknown";
  return found.kind.post({ ...a, fields, ip, requestId: c.get("requestId") }, found.params);
}
