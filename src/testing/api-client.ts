// The API as tests call it: the SPA's typed client (`hc<Api>`, ADR 021) pointed at a test server
// with a user's cookie, and a loose reader for the answers a typed client cannot describe
// (errors, malformed bodies, requests the types would refuse).
import { hc } from "hono/client";
import type { Api } from "../app/api.ts";
import type { TestServer } from "./test-server.ts";

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in assertions
export type Json = Record<string, any>;

/** Whoever makes the request: a test user, or `{ cookie: "" }` for nobody signed in. */
export type Caller = { cookie: string };

/** The typed API client as `caller` (`apiClient(s, a).books.$get()`), through `s.api` (Origin, cookie). */
export function apiClient(s: TestServer, caller: Caller = { cookie: "" }) {
  return hc<Api>(s.url, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return s.api(`${url.pathname}${url.search}`, { ...init, cookie: caller.cookie });
    },
  }).api;
}

/** The JSON body a typed client call takes: `JsonBody<Client["posts"]["$post"]>`. */
// biome-ignore lint/suspicious/noExplicitAny: matches any call's other arguments
export type JsonBody<F> = F extends (args: infer A, ...rest: any[]) => any
  ? A extends { json: infer J }
    ? J
    : never
  : never;

/** The typed client's type. */
export type Client = ReturnType<typeof apiClient>;

/** Status and body (parsed JSON; null when empty) of an answer, for loose assertions. */
export async function readJson(res: Response | Promise<Response>): Promise<{ status: number; body: Json }> {
  const r = await res;
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as Json };
}

/**
 * An API request by path, read loosely: for what the typed client cannot send (wrong shapes,
 * unknown paths). A string body is sent as is, as JSON (malformed JSON); anything else is JSON.
 */
export function callApi(s: TestServer, caller: Caller, method: string, path: string, body?: unknown) {
  return readJson(
    s.api(path, {
      method,
      cookie: caller.cookie,
      ...(body === undefined
        ? {}
        : typeof body === "string"
          ? { body, headers: { "content-type": "application/json" } }
          : { json: body }),
    }),
  );
}

/**
 * The typed body of an answer that must have `status` (the test fails with the status and body
 * otherwise): `const { post } = await expectStatus(apiClient(s, a).posts.$post({ json }), 201)`.
 */
export async function expectStatus<R extends { status: number; text(): Promise<string> }, S extends R["status"]>(
  res: R | Promise<R>,
  status: S,
): Promise<Extract<R, { status: S }> extends { json(): Promise<infer T> } ? T : never> {
  const r = await res;
  const text = await r.text();
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : null) as never;
}
