// The Subscribers API through real requests: a page at a time with search, filter and counts; the
// page a reader signed up on; removal; the CSV import's rules (ADR 067); and that no author reaches
// another's list.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { IMPORT_MAX_ROWS, IMPORT_MESSAGES, signupPagePath } from "../../../shared/schemas/subscribers.ts";
import { apiClient, type Caller, type Client, callApi, type Json, readJson } from "../../../testing/api-client.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

let s: TestServer;
let a: TestAuthor;
let b: TestAuthor;

beforeAll(async () => {
  s = await startTestServer();
  [a, b] = await Promise.all([createAuthor(s), createAuthor(s)]);
});
afterAll(() => s?.close());

type Query = Parameters<Client["newsletter"]["subscribers"]["$get"]>[0]["query"];
const list = (who: Caller, query: Query = {}) => readJson(apiClient(s, who).newsletter.subscribers.$get({ query }));

function upload(who: Caller, csv: string | Uint8Array<ArrayBuffer>, consent: string | null = "true") {
  const form = new FormData();
  form.append("file", new File([csv], "list.csv", { type: "text/csv" }));
  if (consent !== null) form.append("consent", consent);
  return readJson(s.api("/api/newsletter/subscribers/import", { method: "POST", body: form, cookie: who.cookie }));
}

const rowsOf = async (userId: string) =>
  s.database.db
    .select({ email: newsletterSubscribers.email, status: newsletterSubscribers.status })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.userId, userId));

async function seed(userId: string, email: string, status: string, createdAt = new Date()) {
  await s.database.db.insert(newsletterSubscribers).values({
    userId,
    email,
    status,
    confirmToken: `tok-${Math.random().toString(36).slice(2)}-${email}`,
    createdAt,
  });
}

describe("the page a reader signed up on", () => {
  it("keeps a site path only", () => {
    expect(signupPagePath("/newsletter")).toBe("/newsletter");
    expect(signupPagePath("/books/my-book?utm_source=x#top")).toBe("/books/my-book");
    expect(signupPagePath("https://evil.example/newsletter")).toBeNull();
    expect(signupPagePath("//evil.example/x")).toBeNull();
    expect(signupPagePath("/a b")).toBeNull();
    expect(signupPagePath("/<script>")).toBeNull();
    expect(signupPagePath(`/${"x".repeat(300)}`)).toBeNull();
    expect(signupPagePath(undefined)).toBeNull();
  });

  it("is stored from the site's sign-up form and listed", async () => {
    const host = `${a.subdomain}.localhost`;
    // The author shows the site's own form (ADR 052); its hidden field names its page.
    const shown = apiClient(s, a).site.settings.$patch({ json: { showWhenEmpty: ["newsletter"] } });
    expect((await readJson(shown)).status).toBe(200);
    const page = await s.onHost(host, "/newsletter");
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="page" value="/newsletter"');
    await s.postOnHost(host, "/newsletter", { email: "paged@example.com", page: "/newsletter?ref=mail" });
    await s.postOnHost(host, "/newsletter", { email: "forged@example.com", page: "https://evil.example/" });
    const { body } = await list(a, { q: "example.com" });
    const byEmail = new Map((body.subscribers as Json[]).map((x) => [x.email, x]));
    expect(byEmail.get("paged@example.com")?.signupPage).toBe("/newsletter");
    expect(byEmail.get("paged@example.com")?.status).toBe("pending");
    expect(byEmail.get("paged@example.com")?.importedAt).toBeNull();
    expect(byEmail.get("forged@example.com")?.signupPage).toBeNull();
    await s.database.db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.userId, a.id));
  });
});

describe("listing", () => {
  it("pages, searches, filters and counts only the author's own list", async () => {
    const base = Date.parse("2026-10-01T00:00:00Z");
    for (let i = 0; i < 120; i++) {
      const status = i % 10 === 0 ? "unsubscribed" : i % 3 === 0 ? "pending" : "confirmed";
      await seed(a.id, `reader${String(i).padStart(3, "0")}@example.com`, status, new Date(base + i * 60_000));
    }
    await seed(b.id, "someone-else@example.com", "confirmed");

    const first = await list(a);
    expect(first.status).toBe(200);
    expect(first.body.subscribers).toHaveLength(50);
    expect(first.body.total).toBe(120);
    expect(first.body.pageSize).toBe(50);
    expect(first.body.subscribers[0].email).toBe("reader119@example.com"); // newest first
    expect(first.body.counts).toEqual({ confirmed: 72, pending: 36, unsubscribed: 12, bounced: 0 });

    const third = await list(a, { page: "3" });
    expect(third.body.subscribers).toHaveLength(20);
    expect(third.body.subscribers.at(-1).email).toBe("reader000@example.com");
    expect((await list(a, { page: "4" })).body.subscribers).toEqual([]);

    const found = await list(a, { q: "READER11" });
    expect((found.body.subscribers as Json[]).map((x) => x.email).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `reader11${i}@example.com`),
    );
    // Counts stay the whole list's; total is the search's.
    expect(found.body.total).toBe(10);
    expect(found.body.counts.confirmed).toBe(72);

    const unsub = await list(a, { status: "unsubscribed" });
    expect(unsub.body.total).toBe(12);
    expect((unsub.body.subscribers as Json[]).every((x) => x.status === "unsubscribed")).toBe(true);
    // A search term is text, never a pattern.
    expect((await list(a, { q: "%" })).body.total).toBe(0);
    expect((await list(a, { q: "_" })).body.total).toBe(0);

    const other = await list(b);
    expect(other.body.total).toBe(1);
    expect(other.body.subscribers[0].email).toBe("someone-else@example.com");
    expect((await list(b, { q: "reader" })).body.total).toBe(0);
  });

  it("refuses bad input with a message, and a visitor", async () => {
    for (const [query, field, answer] of [
      ["?page=0", "page", () => list(a, { page: "0" })],
      ["?page=abc", "page", () => list(a, { page: "abc" })],
      // A status there is not, on purpose, which the typed client refuses to send.
      ["?status=gone", "status", () => callApi(s, a, "GET", "/api/newsletter/subscribers?status=gone")],
      [`?q=${"x".repeat(400)}`, "q", () => list(a, { q: "x".repeat(400) })],
    ] as const) {
      const r = await answer();
      expect(r.status, query).toBe(400);
      expect(r.body.error.field, query).toBe(field);
      expect(r.body.error.message, query).toBeTruthy();
    }
    expect((await list({ cookie: "" })).status).toBe(401);
  });
});

describe("removing", () => {
  it("removes the author's own subscriber only", async () => {
    await seed(a.id, "remove-me@example.com", "confirmed");
    const target = (await list(a, { q: "remove-me" })).body.subscribers[0].id as string;
    const del = (who: Caller, id = target) =>
      readJson(apiClient(s, who).newsletter.subscribers[":id"].$delete({ param: { id } }));
    expect((await del(b)).status).toBe(404);
    expect((await list(a, { q: "remove-me" })).body.total).toBe(1);
    expect((await del({ cookie: "" })).status).toBe(401);
    expect((await del(a)).status).toBe(204);
    expect((await list(a, { q: "remove-me" })).body.total).toBe(0);
    expect((await del(a)).status).toBe(404);
    expect((await del(a, "not-an-id")).status).toBe(404);
  });
});

describe("importing", () => {
  it("imports a Mailchimp export: BOM, quotes, CRLF; skips what is on the list; never resubscribes", async () => {
    await seed(a.id, "left@example.com", "unsubscribed");
    await seed(a.id, "waiting@example.com", "pending");
    const csv =
      '\uFEFF"Email Address","First Name","Last Name"\r\n' +
      '"new1@example.com","Ann","Smith, Jr."\r\n' +
      '"NEW2@Example.com","Bob","says ""hi"""\r\n' +
      '"left@example.com","Left",""\r\n' +
      '"waiting@example.com","W",""\r\n' +
      '"not an address","X",""\r\n' +
      '"new1@example.com","Again",""\r\n' +
      '"multi\r\nline","Y",""\r\n' +
      '"","Empty",""\r\n' +
      "\r\n";
    const r = await upload(a, csv);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      imported: 2,
      alreadyOnList: 3,
      invalidCount: 3,
      invalid: [
        { line: 6, value: "not an address" },
        { line: 8, value: "multi\r\nline" },
        { line: 10, value: "" },
      ],
    });
    const rows = new Map((await rowsOf(a.id)).map((x) => [x.email, x.status]));
    expect(rows.get("new1@example.com")).toBe("confirmed");
    expect(rows.get("new2@example.com")).toBe("confirmed");
    expect(rows.get("left@example.com")).toBe("unsubscribed");
    expect(rows.get("waiting@example.com")).toBe("pending");
    const listed = (await list(a, { q: "new1@" })).body.subscribers[0];
    expect(listed.importedAt).toEqual(expect.any(String));
    expect(listed.signupPage).toBeNull();
    // Importing the same file again adds no one.
    expect((await upload(a, csv)).body.imported).toBe(0);
  });

  it("finds the email column of ConvertKit and Substack exports, and semicolons", async () => {
    const ck = await upload(b, "first_name,email_address,state\nAnn,ck@example.com,active\n");
    expect(ck.body.imported).toBe(1);
    const substack = await upload(b, "email,active_subscription,created_at\nsub@example.com,true,2024-01-01\n");
    expect(substack.body.imported).toBe(1);
    const semi = await upload(b, "Name;E-mail\nAnn;semi@example.com\n");
    expect(semi.body.imported).toBe(1);
    const emails = (await rowsOf(b.id)).map((x) => x.email);
    expect(emails).toEqual(expect.arrayContaining(["ck@example.com", "sub@example.com", "semi@example.com"]));
  });

  it("imports nothing without the author's confirmation", async () => {
    const before = (await rowsOf(a.id)).length;
    for (const consent of [null, "false", ""]) {
      const r = await upload(a, "email\nno-consent@example.com\n", consent);
      expect(r.status).toBe(400);
      expect(r.body.error.field).toBe("consent");
      expect(r.body.error.message).toBe(IMPORT_MESSAGES.consent);
    }
    expect((await rowsOf(a.id)).length).toBe(before);
  });

  it("refuses a malformed or unreadable file whole, with a message", async () => {
    const before = (await rowsOf(a.id)).length;
    const cases: [string | Uint8Array<ArrayBuffer>, string, number][] = [
      ['email\nok1@example.com\n"broken@example.com\n', "a quote is never closed", 400],
      ['email\n"ok2@example.com"x\n', "text after a closing quote", 400],
      ["name,phone\nAnn,123\n", IMPORT_MESSAGES.noEmailColumn, 400],
      ["email\n", IMPORT_MESSAGES.empty, 400],
      ["", IMPORT_MESSAGES.empty, 400],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2]), IMPORT_MESSAGES.notText, 400],
    ];
    for (const [csv, message, status] of cases) {
      const r = await upload(a, csv);
      expect(r.status, message).toBe(status);
      expect(r.body.error.field, message).toBe("file");
      expect(r.body.error.message, message).toContain(message);
    }
    expect((await rowsOf(a.id)).length).toBe(before);
    const noFile = await readJson(
      s.api("/api/newsletter/subscribers/import", {
        method: "POST",
        body: (() => {
          const f = new FormData();
          f.append("consent", "true");
          return f;
        })(),
        cookie: a.cookie,
      }),
    );
    expect(noFile.status).toBe(400);
    expect(noFile.body.error.message).toBe(IMPORT_MESSAGES.noFile);
    // JSON to the upload on purpose: a wrong content type, which the contract does not describe.
    const json = await callApi(s, a, "POST", "/api/newsletter/subscribers/import", { email: "x@example.com" });
    expect(json.status).toBe(400);
  });

  it("refuses a file over the row or size limit, importing nothing", async () => {
    const before = (await rowsOf(a.id)).length;
    const rows = Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `r${i}@x.io`).join("\n");
    const many = await upload(a, `email\n${rows}\n`);
    expect(many.status).toBe(413);
    expect(many.body.error.message).toBe(IMPORT_MESSAGES.tooManyRows);
    const big = await upload(a, `email\n${"a".repeat(5 * 1024 * 1024 + 10)}\n`);
    expect(big.status).toBe(413);
    expect(big.body.error.message).toBe(IMPORT_MESSAGES.tooLarge);
    expect((await rowsOf(a.id)).length).toBe(before);
  });

  it("adds only to the caller's own list, and not for a visitor", async () => {
    const r = await upload(b, "email\nmine-b@example.com\n");
    expect(r.body.imported).toBe(1);
    const onA = await s.database.db
      .select()
      .from(newsletterSubscribers)
      .where(and(eq(newsletterSubscribers.userId, a.id), eq(newsletterSubscribers.email, "mine-b@example.com")));
    expect(onA).toEqual([]);
    // b's own address in a's list is a's to import: lists are separate.
    expect((await upload(a, "email\nmine-b@example.com\n")).body.imported).toBe(1);
    expect((await upload({ cookie: "" }, "email\nnobody@example.com\n")).status).toBe(401);
    expect((await rowsOf(a.id)).some((x) => x.email === "nobody@example.com")).toBe(false);
  });
});
