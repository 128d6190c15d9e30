// Every API error body is { error: { code, message, field?, issues? } } with a code from
// src/shared/api-errors.ts; these are the shapes the app switches on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ERROR_CODES } from "../../shared/api-errors.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../testing/users.ts";

let s: TestServer;
let a: TestAuthor;
beforeAll(async () => {
  s = await startTestServer();
  a = await createAuthor(s);
});
afterAll(async () => {
  await s?.close();
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
