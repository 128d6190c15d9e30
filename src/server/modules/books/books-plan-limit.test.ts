// The books plan limit: capacity from the plan, the refusal past it (also under concurrent
// requests), and books beyond the limit when the tier changes around the billing service.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books, subscriptions } from "../../../db/schema/index.ts";
import { apiClient, type Json, readJson } from "../../../testing/api-client.ts";
import { changeCount, create, createOk, positions, s, startBooksServer, titles } from "../../../testing/books.ts";
import { createAuthor, createSignedInUser } from "../../../testing/users.ts";

startBooksServer();

describe("plan limit", () => {
  it("reports capacity from the plan, and mini when there is no subscription", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    expect((await readJson(apiClient(s, a).books.capacity.$get())).body).toEqual({
      tier: "midi",
      limit: 10,
      used: 0,
      shown: 0,
      hiddenByPlan: 0,
      canAdd: true,
    });
    const u = await createSignedInUser(s);
    expect((await readJson(apiClient(s, u).books.capacity.$get())).body).toEqual({
      tier: "mini",
      limit: 5,
      used: 0,
      shown: 0,
      hiddenByPlan: 0,
      canAdd: true,
    });
  });

  it("refuses the sixth book on mini with the spec's message, and allows it after an upgrade", async () => {
    const a = await createAuthor(s, { tier: "mini" });
    for (let i = 0; i < 5; i++) await createOk(a, { title: `Book ${i}` });
    expect((await readJson(apiClient(s, a).books.capacity.$get())).body).toEqual({
      tier: "mini",
      limit: 5,
      used: 5,
      shown: 5,
      hiddenByPlan: 0,
      canAdd: false,
    });
    const before = changeCount(a.id);
    const r = await create(a, { title: "Sixth" });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: "plan_limit_reached", message: "Book limit exceeded for current plan" });
    expect(await titles(a)).toHaveLength(5);
    expect(changeCount(a.id)).toBe(before);
    // Hidden books count too: hiding does not make room.
    const first = (await readJson(apiClient(s, a).books.$get())).body.books[0];
    await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: first.id }, json: { visible: false } }),
    );
    expect((await create(a, { title: "Sixth" })).status).toBe(403);

    await s.database.db.update(subscriptions).set({ tier: "midi" }).where(eq(subscriptions.userId, a.id));
    expect((await create(a, { title: "Sixth" })).status).toBe(201);
  });

  it("lets exactly the remaining number of racing creates through", async () => {
    const a = await createAuthor(s, { tier: "mini" });
    for (let i = 0; i < 3; i++) await createOk(a, { title: `Book ${i}` });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(a, { title: `Racer ${i}`, isFeatured: i % 2 === 0 })),
    );
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(2);
    expect(codes.filter((c) => c === 403)).toHaveLength(6);
    const rows = await s.database.db.select().from(books).where(eq(books.userId, a.id));
    expect(rows).toHaveLength(5);
    expect(await positions(a.id)).toEqual([0, 1, 2, 3, 4]);
  });

  it("lets only one of two racing requests take the last place", async () => {
    const a = await createAuthor(s, { tier: "mini" });
    for (let i = 0; i < 4; i++) await createOk(a, { title: `Book ${i}` });
    const [x, y] = await Promise.all([create(a, { title: "X" }), create(a, { title: "Y" })]);
    expect([x.status, y.status].sort()).toEqual([201, 403]);
    expect(await s.database.db.select().from(books).where(eq(books.userId, a.id))).toHaveLength(5);
  });

  it("a tier written around the billing service: marks books beyond the limit, refuses showing one past it", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    for (let i = 0; i < 7; i++) await createOk(a, { title: `Book ${i}` });
    const all = (await readJson(apiClient(s, a).books.$get())).body.books as Json[];
    const hidden = all[0] as Json;
    await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: hidden.id }, json: { visible: false } }),
    );
    await s.database.db.update(subscriptions).set({ tier: "mini" }).where(eq(subscriptions.userId, a.id));

    const list = (await readJson(apiClient(s, a).books.$get())).body.books as Json[];
    // Six visible books on a plan of five: the last visible one (by position) is over the limit.
    expect(list.filter((b) => b.overLimit).map((b) => b.title)).toEqual(["Book 6"]);
    expect(list.find((b) => b.id === hidden.id)?.overLimit).toBe(false);

    // Usage never reads over the plan: five of seven shown, two kept off the site.
    expect((await readJson(apiClient(s, a).books.capacity.$get())).body).toMatchObject({
      limit: 5,
      used: 7,
      shown: 5,
      hiddenByPlan: 1,
    });
    const show = await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: hidden.id }, json: { visible: true } }),
    );
    expect(show.status).toBe(403);
    expect(show.body.error).toMatchObject({
      code: "plan_limit_reached",
      message: "Your Mini plan shows 5 books on your site. Hide one of them first, or upgrade to show more.",
    });
    const viaUpdate = await readJson(
      apiClient(s, a).books[":id"].$patch({ param: { id: hidden.id }, json: { visibilityEnabled: true } }),
    );
    expect(viaUpdate.status).toBe(403);
    expect(
      (await readJson(apiClient(s, a).books[":id"].$get({ param: { id: hidden.id } }))).body.book.visibilityEnabled,
    ).toBe(false);

    // Hiding two others makes room to show it again.
    await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: list[1]?.id }, json: { visible: false } }),
    );
    await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: list[2]?.id }, json: { visible: false } }),
    );
    expect(
      (
        await readJson(
          apiClient(s, a).books[":id"].visibility.$patch({ param: { id: hidden.id }, json: { visible: true } }),
        )
      ).status,
    ).toBe(200);
  });

  it("lets only one of two racing un-hides take the last visible place", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    for (let i = 0; i < 7; i++) await createOk(a, { title: `Book ${i}` });
    const all = (await readJson(apiClient(s, a).books.$get())).body.books as Json[];
    for (const b of all.slice(0, 3))
      await readJson(apiClient(s, a).books[":id"].visibility.$patch({ param: { id: b.id }, json: { visible: false } }));
    await s.database.db.update(subscriptions).set({ tier: "mini" }).where(eq(subscriptions.userId, a.id));
    // 4 visible on a plan of 5: one place left, two requests.
    const [x, y] = await Promise.all([
      readJson(apiClient(s, a).books[":id"].visibility.$patch({ param: { id: all[0]?.id }, json: { visible: true } })),
      readJson(apiClient(s, a).books[":id"].$patch({ param: { id: all[1]?.id }, json: { visibilityEnabled: true } })),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 403]);
    const rows = await s.database.db.select().from(books).where(eq(books.userId, a.id));
    expect(rows.filter((b) => b.visibilityEnabled)).toHaveLength(5);
  });
});
