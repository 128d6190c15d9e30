// Every API error body is { error: { code, message, field?, issues? } } with a code from
// src/shared/api-errors.ts; these are the shapes the app switches on.
import { beforeAll, describe, expect, it } from "vitest";
import { API_ERROR_CODES, defaultErrorCode, statusOf } from "../../shared/api-errors.ts";
import { s, startFileServer } from "../../testing/file-server.ts";
import { createAuthor, type TestAuthor } from "../../testing/users.ts";
import { DomainError } from "../lib/domain-error.ts";
import { HttpError, httpStatusOf } from "./errors.ts";

startFileServer();
let a: TestAuthor;
beforeAll(async () => {
  a = await createAuthor(s);
});

const errorOf = async (res: Response) => ((await res.json()) as { error: Record<string, unknown> }).error;

describe("API error bodies", () => {
  it("a validation failure names the first field and lists every issue", async () => {
    const res = await s.api("/api/books", {
      method: "POST",
      cookie: a.cookie,
      json: { title: " ", author: "", isbn: "12345" },
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: "validation_failed", field: "title", message: "Book title is required" });
    expect(error.issues).toEqual(
      expect.arrayContaining([
        { field: "title", message: "Book title is required" },
        { field: "author", message: "Author name is required" },
        { field: "isbn", message: "Please enter a valid ISBN-10 or ISBN-13" },
      ]),
    );
  });

  it("answers the app's own refusals with their codes", async () => {
    const cases: [Promise<Response>, number, string][] = [
      [s.api("/api/books"), 401, "unauthenticated"],
      [s.api("/api/nothing-here", { cookie: a.cookie }), 404, "not_found"],
      [s.api("/api/books", { method: "POST", cookie: a.cookie, body: "title=x" }), 415, "unsupported_media_type"],
      // A declared route's media-type check (the library's own refusal) answers in the same shape.
      [
        s.api("/api/posts", {
          method: "POST",
          cookie: a.cookie,
          headers: { "content-type": "application/json; nonsense" },
          body: "{}",
        }),
        415,
        "unsupported_media_type",
      ],
      [
        s.api("/api/books", {
          method: "POST",
          cookie: a.cookie,
          headers: { origin: "https://evil.example" },
          json: {},
        }),
        403,
        "cross_site_refused",
      ],
      [
        s.api("/api/books", { method: "POST", cookie: a.cookie, json: { title: "x".repeat(200 * 1024) } }),
        413,
        "payload_too_large",
      ],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      expect(res.status).toBe(status);
      const error = await errorOf(res);
      expect(error.code).toBe(code);
      expect(typeof error.message).toBe("string");
      expect(API_ERROR_CODES).toContain(error.code);
    }
  });
});

describe("a refusal's status comes from its code (ADR 058)", () => {
  it("every code has one status, and each status's generic code is answered with that status", () => {
    for (const code of API_ERROR_CODES) expect(statusOf(code)).toBeGreaterThanOrEqual(400);
    for (const status of [400, 401, 403, 404, 409, 413, 415, 429, 500, 502]) {
      expect(statusOf(defaultErrorCode(status))).toBe(status);
    }
  });

  it("a transport's HttpError keeps the status it names; a service's DomainError gets its code's", () => {
    expect(httpStatusOf(new HttpError(415, "Send JSON"))).toBe(415);
    expect(new HttpError(400, "Bad", { field: "title" }).code).toBe("validation_failed");
    expect(httpStatusOf(new DomainError("domain_taken", "Taken", { field: "domain" }))).toBe(409);
    expect(httpStatusOf(new DomainError("mail_failed", "Not sent"))).toBe(502);
  });

  it("services' refusals reach the client in the one body with their status", async () => {
    const missing = await s.api("/api/books/00000000-0000-4000-8000-000000000000", { cookie: a.cookie });
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ code: "not_found", message: "Book not found" });
    const first = await s.api("/api/series", { method: "POST", cookie: a.cookie, json: { name: "Refusals" } });
    expect(first.status).toBe(201);
    const again = await s.api("/api/series", { method: "POST", cookie: a.cookie, json: { name: "Refusals" } });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({ code: "conflict", field: "name" });
  });
});
