// Every route on every host has a body limit, and a NUL character anywhere in what we read as text
// is a 400 that changes nothing (ADR 049). Through the real server: raw sockets for oversized
// bodies (chunked, so nothing declares a length), every documented API operation and every form.
import { connect } from "node:net";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bigBody } from "../../testing/faults/abuse.ts";
import { s, startFileServer } from "../../testing/file-server.ts";
import { createAuthor, type TestAuthor } from "../../testing/users.ts";
import { API_BODY_LIMIT, FORM_BODY_LIMIT, NUL_MESSAGE, nulInJson } from "./input-guard.ts";

startFileServer();
let author: TestAuthor;
beforeAll(async () => {
  author = await createAuthor(s);
});

/** Rows in every table of the database, by table: what "nothing changed" is checked against. */
async function rowCounts(): Promise<Record<string, number>> {
  const db = s.database.db;
  const tables = await db.execute(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const out: Record<string, number> = {};
  for (const t of (tables as unknown as { rows: { name: string }[] }).rows) {
    const r = await db.execute(sql`select count(*)::int as n from ${sql.identifier(t.name)}`);
    out[t.name] = (r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? -1;
  }
  return out;
}

const rss = () => process.memoryUsage().rss;

describe("body limit on every host and route", () => {
  it("refuses 10 MB chunked bodies with 413 before reading them, on every kind of route, and stores nothing", async () => {
    const app = `localhost:${s.port}`;
    const site = `${author.subdomain}.localhost:${s.port}`;
    const form = "application/x-www-form-urlencoded";
    const json = "application/json";
    const routes: { host: string; path: string; type: string }[] = [
      // The API (its own 100 KB limit sits behind the outer one), Better Auth, the Stripe webhook.
      { host: app, path: "/api/posts", type: json },
      { host: app, path: "/api/support/tickets", type: json },
      { host: app, path: "/api/auth/sign-in/email", type: json },
      { host: app, path: "/api/webhooks/stripe", type: json },
      // Sandbox billing (issue 29: 150 MB here kept 800 MB resident).
      { host: app, path: "/billing/sandbox/portal", type: form },
      { host: app, path: "/billing/sandbox/checkout", type: form },
      // Marketing forms, the contact-address verification page, previews, and paths nobody serves.
      { host: app, path: "/contact", type: form },
      { host: app, path: "/contact-email/verify", type: form },
      { host: app, path: `/author/${author.subdomain}/contact`, type: form },
      { host: app, path: "/demo/newsletter", type: form },
      { host: app, path: "/internal/tls/ask", type: form },
      { host: app, path: "/no-such-page", type: "application/octet-stream" },
      // A tenant site's forms, and a host we do not serve.
      { host: site, path: "/contact", type: form },
      { host: site, path: "/newsletter", type: form },
      { host: site, path: "/cookie-consent", type: form },
      { host: `nobody.example.com:${s.port}`, path: "/contact", type: form },
    ];
    const bytes = 10 * 1024 * 1024;
    const headers = `Cookie: ${author.cookie}\r\n`;
    const before = await rowCounts();
    // Warm up what the first requests load, so the memory baseline is the server at work.
    await Promise.all(
      routes.map((r) =>
        bigBody(s.port, r.host, r.path, { bytes: 1024, chunked: true, limitMs: 10_000, contentType: r.type }),
      ),
    );
    const start = rss();
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 20);
    const outcomes = await Promise.all(
      routes.flatMap((r) =>
        [true, false].map((chunked) =>
          // Signed in, so that routes which want an author read the body rather than answer 401.
          bigBody(s.port, r.host, r.path, { bytes, chunked, limitMs: 20_000, contentType: r.type, headers }).then(
            (o) => ({
              ...r,
              chunked,
              ...o,
            }),
          ),
        ),
      ),
    );
    clearInterval(sampler);
    for (const o of outcomes) {
      const what = `${o.host}${o.path} (${o.chunked ? "chunked" : "Content-Length"})`;
      expect(o.status, what).toBe(413);
      expect(o.timedOut, what).toBe(false);
      expect(o.sent, `${what}: the whole body was sent`).toBeLessThan(bytes);
    }
    // 32 requests of 10 MB: reading them would have taken 320 MB.
    expect(peak - start).toBeLessThan(64 * 1024 * 1024);
    expect(await rowCounts()).toEqual(before);
  });

  it("lets a body just under the limit through to the route, and refuses one just over", async () => {
    const form = (pad: number) =>
      s.api("/billing/sandbox/portal", {
        method: "POST",
        cookie: author.cookie,
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `action=nothing-known&pad=${"x".repeat(pad)}`,
      });
    // The route reads it and answers in its own words (an unknown action), not 413.
    const under = await form(FORM_BODY_LIMIT - 100);
    expect(under.status).toBe(400);
    const over = await form(FORM_BODY_LIMIT);
    expect(over.status).toBe(413);
    expect(await over.text()).toBe("The form is too large (limit 64 KB). Nothing was sent.\n");

    const ticket = (message: string) =>
      s.api("/api/support/tickets", { method: "POST", cookie: author.cookie, json: { subject: "Hi", message } });
    const near = await ticket("x".repeat(API_BODY_LIMIT - 200));
    expect(near.status).toBe(400); // the schema's own length message
    expect(((await near.json()) as { error: { field?: string } }).error.field).toBe("message");
    const far = await ticket("x".repeat(API_BODY_LIMIT));
    expect(far.status).toBe(413);
    expect(await far.json()).toEqual({
      error: { code: "payload_too_large", message: "Request body is too large (limit 100 KB)" },
    });
  });
});

describe("a body read in pieces", () => {
  it("reaches the route whole when it arrives in chunks over time, with no length declared", async () => {
    const content = `<p>${"Every word counts. ".repeat(400)}</p>`;
    const body = Buffer.from(JSON.stringify({ title: "Sent in pieces", content, category: "news" }));
    const socket = connect(s.port, "127.0.0.1");
    await new Promise((ok) => socket.once("connect", ok));
    let reply = "";
    socket.on("data", (d: Buffer) => {
      reply += d.toString("latin1");
    });
    const closed = new Promise((ok) => socket.once("close", ok));
    const host = new URL(s.url).host;
    socket.write(
      `POST /api/posts HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${s.url}\r\nCookie: ${author.cookie}\r\n` +
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
    );
    // Seven chunks, each a separate write with a pause between: the reader sees several pieces.
    const size = Math.ceil(body.length / 7);
    for (let at = 0; at < body.length; at += size) {
      const piece = body.subarray(at, at + size);
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write("\r\n");
      await new Promise((ok) => setTimeout(ok, 20));
    }
    socket.write("0\r\n\r\n");
    await closed;
    expect(reply.split("\r\n")[0]).toBe("HTTP/1.1 201 Created");
    const post = JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ""));
    expect(post.post.title).toBe("Sent in pieces");
    expect(post.post.content).toBe(content);
  });
});

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  $ref?: string;
};
type Operation = {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: { in: string; name: string }[];
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/** The string fields of a body schema, as paths (arrays as index 0), each to carry a NUL in turn. */
function stringFields(doc: Document, schema: Schema | undefined, path: string[] = [], depth = 0): string[][] {
  if (!schema || depth > 6) return [];
  if (schema.$ref)
    return stringFields(doc, doc.components?.schemas?.[schema.$ref.split("/").pop() ?? ""], path, depth + 1);
  const alts = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alts) return alts.flatMap((a) => stringFields(doc, a, path, depth + 1));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("string")) return [path];
  if (types.includes("array")) return stringFields(doc, schema.items, [...path, "0"], depth + 1);
  if (schema.properties) {
    return Object.entries(schema.properties).flatMap(([k, v]) => stringFields(doc, v, [...path, k], depth + 1));
  }
  return [];
}

function withNul(path: string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return "before\u0000after";
  if (head === "0") return [withNul(rest)];
  return { [head]: withNul(rest) };
}

describe("a NUL character anywhere", () => {
  it("finds NULs in JSON at any depth and not in an escaped backslash", () => {
    expect(nulInJson({ a: [{ b: "x\u0000" }] })).toBe("a.0.b");
    expect(nulInJson({ "k\u0000": 1 })).toBe("k");
    expect(nulInJson(JSON.parse('{"a":"\\\\u0000"}'))).toBeNull();
  });

  it("is a 400 naming the field on every documented API operation, and changes nothing", async () => {
    const res = await s.api("/api/openapi.json");
    const doc = (await res.json()) as Document;
    const before = await rowCounts();
    const failures: string[] = [];
    let tried = 0;
    for (const [rawPath, ops] of Object.entries(doc.paths)) {
      const base = rawPath.startsWith("/api/") ? rawPath : `/api${rawPath}`;
      for (const [method, op] of Object.entries(ops)) {
        const path = base.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
        // A NUL in a path segment and in the query, on every operation.
        const inPath = base.includes("{") ? [base.replace(/\{[^}]+\}/, "x%00y").replace(/\{[^}]+\}/g, "z")] : [];
        for (const url of [...inPath, `${path}?q=a%00b`]) {
          const r = await s.api(url, { method: method.toUpperCase(), cookie: author.cookie });
          tried++;
          if (r.status !== 400) failures.push(`${method} ${url}: ${r.status}`);
        }
        const schema = op.requestBody?.content?.["application/json"]?.schema;
        for (const field of stringFields(doc, schema)) {
          const r = await s.api(path, { method: method.toUpperCase(), cookie: author.cookie, json: withNul(field) });
          tried++;
          const body = (await r.json().catch(() => null)) as { error?: { message?: string; field?: string } } | null;
          if (r.status !== 400 || body?.error?.message !== NUL_MESSAGE || body.error.field !== field.join(".")) {
            failures.push(`${method} ${path} field ${field.join(".")}: ${r.status} ${JSON.stringify(body)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(100);
    expect(await rowCounts()).toEqual(before);
  });

  it("is a 400 page on every public form, anonymous or signed in, and changes nothing", async () => {
    const site = `${author.subdomain}.localhost`;
    const forms: { host?: string; path: string; fields: Record<string, string>; cookie?: string }[] = [
      { path: "/contact", fields: { name: "Ann", email: "ann@example.com", subject: "Hi", message: "Hello there" } },
      { host: site, path: "/contact", fields: { name: "Ann", email: "ann@example.com", message: "Hello there" } },
      { host: site, path: "/newsletter", fields: { email: "ann@example.com", name: "Ann" } },
      { host: site, path: "/newsletter/confirm", fields: { token: "abc" } },
      { host: site, path: "/alerts/confirm", fields: { token: "abc" } },
      { host: site, path: "/cookie-consent", fields: { choice: "accepted", back: "/" } },
      { path: `/author/${author.subdomain}/contact`, fields: { name: "Ann", email: "ann@example.com", message: "Hi" } },
      { path: "/contact-email/verify", fields: { token: "abc" } },
      { path: "/billing/sandbox/portal", fields: { action: "change-plan", tier: "midi" }, cookie: author.cookie },
      { path: "/billing/sandbox/checkout", fields: { session: "abc", action: "pay" }, cookie: author.cookie },
    ];
    const before = await rowCounts();
    for (const f of forms) {
      for (const field of Object.keys(f.fields)) {
        const fields = { ...f.fields, [field]: `${f.fields[field]}\u0000` };
        for (const encoding of ["urlencoded", "multipart"] as const) {
          const body = encoding === "urlencoded" ? new URLSearchParams(fields) : formData(fields);
          const res = await post(f.host, f.path, body, f.cookie);
          expect(res.status, `${f.host ?? "app"} ${f.path} ${field} (${encoding})`).toBe(400);
          expect(res.body).toMatch(/NUL character/);
          expect(res.contentType).toMatch(/text\/html/);
        }
      }
    }
    // In the query and in a cookie, on a GET of a tenant page and of the marketing site.
    expect((await s.onHost(site, "/?x=%00")).status).toBe(400);
    expect((await s.onHost(site, "/books/%00")).status).toBe(400);
    expect((await s.onHost(site, "/", { cookie: "cookie_consent=a%00" })).status).toBe(400);
    expect((await s.api("/api/posts", { cookie: `${author.cookie}%00` })).status).toBe(400);
    // JSON sent without its type, for a parser that takes it anyway.
    const untyped = await s.api("/api/auth/update-user", {
      method: "POST",
      cookie: author.cookie,
      headers: { "content-type": "text/plain" },
      body: '{"name":"Ann\\u0000"}',
    });
    expect(untyped.status).toBe(400);
    expect(await rowCounts()).toEqual(before);
    // A Referer is read only for its host, which cannot hold a NUL: the page is served and counted.
    const ua = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0" };
    expect((await s.onHost(site, "/", { ...ua, referer: "http://a%00b.example/x%00" })).status).toBe(200);
    await s.sites.flushVisits();
  });

  it("leaves an upload's file bytes alone: a picture full of zero bytes is judged as a picture", async () => {
    const png = await (await import("sharp"))
      .default({
        create: { width: 400, height: 600, channels: 3, background: { r: 0, g: 0, b: 0 } },
      })
      .png()
      .toBuffer();
    expect(png.includes(0)).toBe(true);
    const body = new FormData();
    body.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "black.png");
    const res = await s.api("/api/profile/photo", { method: "POST", cookie: author.cookie, body });
    expect(res.status).toBe(200);
  });
});

function formData(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

async function post(host: string | undefined, path: string, body: URLSearchParams | FormData, cookie?: string) {
  const init: RequestInit = { method: "POST", body, redirect: "manual", headers: cookie ? { cookie } : {} };
  if (!host) {
    const res = await s.api(path, init);
    return { status: res.status, body: await res.text(), contentType: res.headers.get("content-type") ?? "" };
  }
  const res = await s.postOnHost(host, path, body, cookie ? { cookie } : {});
  return { status: res.status, body: res.body, contentType: String(res.headers["content-type"] ?? "") };
}
