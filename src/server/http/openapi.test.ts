// The run-time check of answers against the document (ADR 059) and the names it gives operations.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerMismatch, errors, json, operationIdOf } from "./openapi.ts";

const responses = {
  200: json(z.object({ name: z.string() }).nullable(), "A thing"),
  204: { description: "Gone" },
  302: { description: "Elsewhere" },
  ...errors(404),
};
const answer = (status: number, body?: unknown, type = "application/json") =>
  new Response(body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { "content-type": type },
  });

describe("answerMismatch", () => {
  it("accepts answers as declared", async () => {
    expect(await answerMismatch(responses, answer(200, { name: "x", extra: 1 }))).toBeUndefined();
    expect(await answerMismatch(responses, answer(200, null))).toBeUndefined();
    expect(await answerMismatch(responses, answer(204))).toBeUndefined();
    expect(await answerMismatch(responses, answer(302, "{}"))).toBeUndefined();
    expect(
      await answerMismatch(responses, answer(404, { error: { code: "not_found", message: "No" } })),
    ).toBeUndefined();
    expect(await answerMismatch(responses, answer(500, { anything: true }))).toBeUndefined();
  });

  it("names what is wrong", async () => {
    expect(await answerMismatch(responses, answer(200, { name: 1 }))).toMatch(/200's body: .*name/s);
    expect(await answerMismatch(responses, answer(404, { message: "No" }))).toMatch(/404's body/);
    expect(await answerMismatch(responses, answer(409, { error: { code: "conflict", message: "x" } }))).toBe(
      "status 409 is not declared",
    );
    expect(await answerMismatch(responses, answer(200, "a,b", "text/csv"))).toMatch(/answered text\/csv/);
    expect(await answerMismatch(responses, answer(200, "{not json"))).toMatch(/not JSON/);
  });
});

describe("operationIdOf", () => {
  it("names an operation by its method and path", () => {
    expect(operationIdOf("get", "/books/{id}/cover")).toBe("getBooksByIdCover");
    expect(operationIdOf("post", "/auth/two-factor/verify-totp")).toBe("postAuthTwoFactorVerifyTotp");
    expect(operationIdOf("get", "/newsletter/subscribers.csv")).toBe("getNewsletterSubscribersCsv");
  });
});
