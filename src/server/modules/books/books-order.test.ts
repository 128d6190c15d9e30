// The books' order over HTTP: the order they were typed in, moves clamped to the list, a given
// order, positions rewritten atomically under racing moves, and another author's ids refused.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books } from "../../../db/schema/index.ts";
import { apiClient, type Json, readJson } from "../../../testing/api-client.ts";
import {
  changeCount,
  create,
  createOk,
  expectSiteChanged,
  positions,
  s,
  startBooksServer,
  titles,
} from "../../../testing/books.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

startBooksServer();

describe("order", () => {
  async function authorWith(n: number) {
    const a = await createAuthor(s, { tier: "midi" });
    for (let i = 0; i < n; i++) await createOk(a, { title: `B${i}` });
    return a;
  }
  const idsOf = async (a: TestAuthor) =>
    ((await readJson(apiClient(s, a).books.$get())).body.books as Json[]).map((b) => b.id as string);

  it("keeps the order books were typed in: a new book goes last, and no other book moves", async () => {
    const a = await authorWith(3);
    expect(await titles(a)).toEqual(["B0", "B1", "B2"]);
    expect(await positions(a.id)).toEqual([0, 1, 2]);
    // Typed newest first instead: that order is kept too.
    const b = await createAuthor(s);
    for (const t of ["Third (2024)", "Second (2022)", "First (2019)"]) await createOk(b, { title: t });
    expect(await titles(b)).toEqual(["Third (2024)", "Second (2022)", "First (2019)"]);
    // After a reorder by hand, the next book is added after it and the order stands.
    const ids = ((await readJson(apiClient(s, a).books.$get())).body.books as Json[]).map((x) => x.id as string);
    await readJson(apiClient(s, a).books.order.$post({ json: { ids: [ids[2] ?? "", ids[0] ?? "", ids[1] ?? ""] } }));
    const before = await s.database.db
      .select({ id: books.id, sortOrder: books.sortOrder })
      .from(books)
      .where(eq(books.userId, a.id));
    const late = await createOk(a, { title: "B3" });
    expect(late.sortOrder).toBe(3);
    expect(await titles(a)).toEqual(["B2", "B0", "B1", "B3"]);
    const after = await s.database.db
      .select({ id: books.id, sortOrder: books.sortOrder })
      .from(books)
      .where(eq(books.userId, a.id));
    for (const row of before) expect(after.find((r) => r.id === row.id)?.sortOrder).toBe(row.sortOrder);
  });

  it("moves a book to a position, clamped to 1..total", async () => {
    const a = await authorWith(4);
    const ids = await idsOf(a);
    const before = changeCount(a.id);
    const r = await readJson(
      apiClient(s, a).books[":id"].move.$post({ param: { id: ids[0] ?? "" }, json: { position: 3 } }),
    );
    expect(r.status).toBe(200);
    expect((r.body.books as Json[]).map((b) => b.title)).toEqual(["B1", "B2", "B0", "B3"]);
    await expectSiteChanged(a.id, before);
    await readJson(apiClient(s, a).books[":id"].move.$post({ param: { id: ids[3] ?? "" }, json: { position: 0 } }));
    expect(await titles(a)).toEqual(["B3", "B1", "B2", "B0"]);
    await readJson(apiClient(s, a).books[":id"].move.$post({ param: { id: ids[3] ?? "" }, json: { position: 99 } }));
    expect(await titles(a)).toEqual(["B1", "B2", "B0", "B3"]);
    expect(await positions(a.id)).toEqual([0, 1, 2, 3]);
    expect(
      (
        await readJson(
          apiClient(s, a).books[":id"].move.$post({ param: { id: ids[0] ?? "" }, json: { position: 1.5 } }),
        )
      ).status,
    ).toBe(400);
  });

  it("puts books in a given order; books left out follow in their order", async () => {
    const a = await authorWith(4);
    const [b0 = "", b1 = "", b2 = "", b3 = ""] = await idsOf(a);
    const r = await readJson(apiClient(s, a).books.order.$post({ json: { ids: [b3, b1, b0, b2] } }));
    expect(r.status).toBe(200);
    expect(await titles(a)).toEqual(["B3", "B1", "B0", "B2"]);
    await readJson(apiClient(s, a).books.order.$post({ json: { ids: [b2, b0] } }));
    expect(await titles(a)).toEqual(["B2", "B0", "B3", "B1"]);
    expect(await positions(a.id)).toEqual([0, 1, 2, 3]);
    const dup = await readJson(apiClient(s, a).books.order.$post({ json: { ids: [b0, b0] } }));
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe("ids must not repeat a book");
    expect(b1).toBeTruthy();
  });

  it("never leaves duplicates or gaps when many moves race", async () => {
    const a = await authorWith(8);
    const ids = await idsOf(a);
    const requests = Array.from({ length: 24 }, (_, i) => {
      const id = ids[(i * 5) % ids.length] as string;
      return i % 3 === 0
        ? readJson(apiClient(s, a).books.order.$post({ json: { ids: [...ids].sort(() => ((i * 7) % 3) - 1) } }))
        : readJson(apiClient(s, a).books[":id"].move.$post({ param: { id }, json: { position: ((i * 3) % 9) + 1 } }));
    });
    // Books are also created and deleted meanwhile.
    const extra = [create(a, { title: "Late" })];
    const results = await Promise.all([...requests, ...extra]);
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(await positions(a.id)).toEqual([...Array(9).keys()]);
    const listed = await idsOf(a);
    expect(new Set(listed).size).toBe(9);
  });

  it("refuses another author's id in an order and changes nothing", async () => {
    const a = await authorWith(2);
    const b = await authorWith(1);
    const [theirs = ""] = await idsOf(b);
    const mine = await idsOf(a);
    const r = await readJson(apiClient(s, a).books.order.$post({ json: { ids: [theirs, ...mine.reverse()] } }));
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("Book not found");
    expect(await titles(a)).toEqual(["B0", "B1"]);
  });
});
