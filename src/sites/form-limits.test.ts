// Public forms read their bodies with a hard byte limit, with or without Content-Length.
import { request } from "node:http";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages, contactSettings, newsletterSubscribers } from "../db/schema/index.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../testing/users.ts";

let s: TestServer;
let author: TestAuthor;

beforeAll(async () => {
  s = await startTestServer();
  author = await createAuthor(s);
  // Anti-spam off: nothing but the size limit stands between a post and the database.
  await s.database.db
    .update(contactSettings)
    .set({ antispamEnabled: false })
    .where(eq(contactSettings.userId, author.id));
});
afterAll(() => s?.close());

type Sent = { status: number; headers: Record<string, string | string[] | undefined>; body: string; sent: number };

/**
 * POSTs a form body of `total` bytes with Transfer-Encoding: chunked (no Content-Length), written
 * as the server takes it, and stops writing once the server has answered.
 */
function chunkedPost(host: string, path: string, total: number): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request({
      host: "127.0.0.1",
      port: s.port,
      path,
      method: "POST",
      headers: {
        host: `${host}:${s.port}`,
        "content-type": "application/x-www-form-urlencoded",
        "transfer-encoding": "chunked",
      },
    });
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sent });
      });
    });
    // The server closing a connection it stopped reading is expected; only fail if it never answered.
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    const head = Buffer.from("name=a&email=a%40example.com&subject=s&message=");
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      if (sent === 0) {
        req.write(head);
        sent += head.length;
      }
      while (!answered && sent < total) {
        const part = total - sent < chunk.length ? chunk.subarray(0, total - sent) : chunk;
        sent += part.length;
        if (!req.write(part)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const post = (host: string, path: string, form: Record<string, string>) => s.postOnHost(host, path, form);

const messages = async () =>
  (await s.database.db.select({ n: count() }).from(contactMessages).where(eq(contactMessages.userId, author.id)))[0]
    ?.n ?? 0;

describe("public form bodies", () => {
  it("refuses a 50 MB chunked contact post at once with 413, stores nothing and does not buffer it", async () => {
    const host = `${author.subdomain}.localhost`;
    const before = await messages();
    // Warm up the path first, so that loading code is not counted as the body's memory.
    await chunkedPost(host, "/contact", 256 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const res = await chunkedPost(host, "/contact", 50 * 1024 * 1024);
    const growth = process.memoryUsage().rss - rssBefore;
    expect(res.status).toBe(413);
    expect(res.body).toContain("The form is too large (limit 64 KB)");
    expect(res.headers.connection).toBe("close");
    expect(res.headers["cache-control"]).toBe("no-store");
    // The server stopped taking the body long before its end, and kept next to none of it
    // (buffering it would add well over the body's 50 MB).
    expect(res.sent, `bytes the server took: ${res.sent}`).toBeLessThan(25 * 1024 * 1024);
    expect(growth, `RSS growth: ${growth}`).toBeLessThan(25 * 1024 * 1024);
    expect(await messages()).toBe(before);
  });

  it("refuses oversized chunked bodies on every public form, on tenant hosts and the app host's previews", async () => {
    const tenant = `${author.subdomain}.localhost`;
    const cases: [string, string][] = [
      [tenant, "/newsletter"],
      [tenant, "/newsletter/confirm"],
      [tenant, "/cookie-consent"],
      ["localhost", `/author/${author.subdomain}/contact`],
      ["localhost", `/author/${author.subdomain}/newsletter`],
      ["localhost", `/author/${author.subdomain}/cookie-consent`],
    ];
    for (const [host, path] of cases) {
      const res = await chunkedPost(host, path, 4 * 1024 * 1024);
      expect({ path, status: res.status }).toEqual({ path, status: 413 });
    }
    const subscribers = await s.database.db
      .select({ n: count() })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.userId, author.id));
    expect(subscribers[0]?.n).toBe(0);
    expect(await messages()).toBe(0);
  });

  it("still takes a normal contact message, and one sent in chunks under the limit", async () => {
    const host = `${author.subdomain}.localhost`;
    const ok = await post(host, "/contact", {
      name: "Reader",
      email: "reader@example.com",
      subject: "Hello",
      message: "Loved the book.",
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("Thank you for your message");
    const small = await chunkedPost(host, "/contact", 3000);
    expect(small.status).toBe(200);
    expect(await messages()).toBe(2);
  });
});
