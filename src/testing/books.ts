// What the books API tests share: one real server per test file that listens for the
// site-changed notices, and the requests they make most (a book created, the titles in order).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { books } from "../db/schema/index.ts";
import { SITE_CHANGED_CHANNEL } from "../server/modules/sites/site-changes.service.ts";
import { apiClient, type Client, expectStatus, type Json, type JsonBody, readJson } from "./api-client.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import type { TestAuthor } from "./users.ts";

/** The test file's server, once `startBooksServer()` has started it. */
export let s: TestServer;
const changes: string[] = [];

/** Starts the test file's server (and stops it after the file), counting site-changed notices. */
export function startBooksServer() {
  let stopListening: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    s = await startTestServer();
    stopListening = await s.database.listen(SITE_CHANGED_CHANNEL, (p) => changes.push(p));
  });
  afterAll(async () => {
    await stopListening?.();
    await s?.close();
  });
}

/** What POST /api/books takes. */
export type BookBody = JsonBody<Client["books"]["$post"]>;

const bookBody = (over: Partial<BookBody>): BookBody => ({ title: "A Book", author: "Jane Author", ...over });

/** POST /api/books with a title and author unless `over` says otherwise, read loosely. */
export const create = (a: TestAuthor, over: Partial<BookBody> = {}) =>
  readJson(apiClient(s, a).books.$post({ json: bookBody(over) }));

/** A created book (fails the test unless the answer is 201). */
export async function createOk(a: TestAuthor, over: Partial<BookBody> = {}): Promise<Json> {
  const r = await create(a, over);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.book;
}

/** The author's book titles in their order. */
export const titles = async (a: TestAuthor) =>
  (await expectStatus(apiClient(s, a).books.$get(), 200)).books.map((b) => b.title);

/** The author's books' stored positions, sorted. */
export const positions = async (userId: string) =>
  (await s.database.db.select({ sortOrder: books.sortOrder }).from(books).where(eq(books.userId, userId)))
    .map((r) => r.sortOrder)
    .sort((x, y) => x - y);

/** Waits until the site-changed notice for this author has arrived `n` more times. */
export async function expectSiteChanged(userId: string, before: number, atLeast = 1) {
  await expect.poll(() => changes.filter((c) => c === userId).length - before).toBeGreaterThanOrEqual(atLeast);
}
/** How many site-changed notices for this author have arrived so far. */
export const changeCount = (userId: string) => changes.filter((c) => c === userId).length;
