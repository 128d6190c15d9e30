// Which books readers see when the plan shrinks or grows (ADR 054), end to end over HTTP: the
// author chooses the books that stay on a downgrade, the public pages and sitemap show exactly
// those, and every path that can make a book visible (create, toggle, edit, reorder, a plan
// change) keeps the books shown within the plan. Every expectation is worked out from the rows
// the test made, not read back from the code under test.
import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books, subscriptions } from "../../../db/schema/index.ts";
import { apiClient, type Client, type Json, type JsonBody, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, createSignedInUser, type TestAuthor } from "../../../testing/users.ts";
import { processBillingEvents } from "../billing/billing-events.service.ts";

startFileServer();

/** Books typed in this order, as an author entering a backlist oldest first would. */
async function authorWithBooks(tier: "midi" | "mini", n: number) {
  const a = await createAuthor(s, { tier });
  const made: { id: string; title: string }[] = [];
  for (let i = 1; i <= n; i++) {
    const r = await readJson(
      apiClient(s, a).books.$post({
        json: {
          title: `Book ${String(i).padStart(2, "0")}`,
          author: "Jane",
        },
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    made.push({ id: r.body.book.id, title: r.body.book.title });
  }
  return { a, made };
}

const site = (a: TestAuthor, path: string) => s.onHost(`${a.subdomain}.localhost`, path);

/** The titles the public Books page lists, in its order. */
async function publicTitles(a: TestAuthor): Promise<string[]> {
  const page = await site(a, "/books");
  expect(page.status).toBe(200);
  return [...page.body.matchAll(/<h2>(Book \d+)<\/h2>/g)].map((m) => m[1] as string);
}

/** The rows as stored: which are shown and which the plan hid. */
async function stored(userId: string) {
  return s.database.db
    .select({ id: books.id, visible: books.visibilityEnabled, byPlan: books.hiddenByPlan })
    .from(books)
    .where(eq(books.userId, userId));
}

const tierOf = async (userId: string) =>
  (
    await s.database.db.select({ tier: subscriptions.tier }).from(subscriptions).where(eq(subscriptions.userId, userId))
  )[0]?.tier;

const changePlan = (a: TestAuthor, body: JsonBody<Client["billing"]["change-plan"]["$post"]>) =>
  readJson(apiClient(s, a).billing["change-plan"].$post({ json: body }));

describe("adding books", () => {
  it("keeps the order the author typed, on the dashboard and on the public site", async () => {
    const { a, made } = await authorWithBooks("mini", 3);
    const typed = made.map((b) => b.title);
    expect(((await readJson(apiClient(s, a).books.$get())).body.books as Json[]).map((b) => b.title)).toEqual(typed);
    expect(await publicTitles(a)).toEqual(typed);
  });
});

describe("a downgrade where the author chooses the books that stay", () => {
  it("keeps exactly the chosen books public; the others are hidden, kept, and refused a sixth place", async () => {
    const { a, made } = await authorWithBooks("midi", 10);
    // Two real books typed first, then placeholders; the author keeps the real ones and three more.
    const keep = [made[0], made[1], made[4], made[7], made[9]].map((b) => b?.id as string);
    const keptTitles = made.filter((b) => keep.includes(b.id)).map((b) => b.title);
    const dropped = made.filter((b) => !keep.includes(b.id));

    // Asked first: nothing changes without a choice or a yes.
    const asked = await changePlan(a, { tier: "mini" });
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe("books_would_be_hidden");
    expect(asked.body.error.message).toMatch(/^5 of your books will no longer be shown on your site: the Mini plan/);
    expect(await tierOf(a.id)).toBe("midi");

    const done = await changePlan(a, { tier: "mini", keepVisible: keep });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await tierOf(a.id)).toBe("mini");

    const rows = await stored(a.id);
    expect(
      rows
        .filter((r) => r.visible)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...keep].sort());
    expect(
      rows
        .filter((r) => r.byPlan)
        .map((r) => r.id)
        .sort(),
    ).toEqual(dropped.map((b) => b.id).sort());

    // The public Books page, each book's page and the sitemap agree.
    expect(await publicTitles(a)).toEqual(keptTitles);
    for (const b of dropped.slice(0, 2)) {
      const r = await site(a, `/book/${b.id}`);
      expect(r.status).toBe(404);
      expect(r.body).not.toContain(b.title);
    }
    // A shown book's id answers with its address (ADR 051); a hidden one's is a 404 above.
    expect((await site(a, `/book/${keep[2]}`)).status).toBe(301);
    const sitemap = (await site(a, "/sitemap.xml")).body;
    expect(sitemap.match(/\/book\//g)).toHaveLength(5);
    for (const b of dropped) expect(sitemap).not.toContain(b.id);

    // The Books screen's view: who is hidden by the plan, and usage that never reads over 100%.
    const list = (await readJson(apiClient(s, a).books.$get())).body.books as Json[];
    expect(list.filter((b) => b.hiddenByPlan).map((b) => b.title)).toEqual(dropped.map((b) => b.title));
    expect((await readJson(apiClient(s, a).books.capacity.$get())).body).toEqual({
      tier: "mini",
      limit: 5,
      used: 10,
      shown: 5,
      hiddenByPlan: 5,
      canAdd: false,
    });

    // A sixth shown book is refused, by the toggle and by the editor, and nothing changes.
    const target = dropped[0] as { id: string; title: string };
    const toggle = await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: target.id }, json: { visible: true } }),
    );
    expect(toggle.status).toBe(403);
    expect(toggle.body.error).toMatchObject({
      code: "plan_limit_reached",
      message: "Your Mini plan shows 5 books on your site. Hide one of them first, or upgrade to show more.",
    });
    const edit = await readJson(
      apiClient(s, a).books[":id"].$patch({ param: { id: target.id }, json: { visibilityEnabled: true } }),
    );
    expect(edit.status).toBe(403);
    // Adding a book is refused too (the limit counts every kept book).
    expect((await readJson(apiClient(s, a).books.$post({ json: { title: "Book 11", author: "Jane" } }))).status).toBe(
      403,
    );
    // Reordering never changes which books are shown: a hidden one moved to the top stays hidden.
    expect(
      (await readJson(apiClient(s, a).books[":id"].move.$post({ param: { id: target.id }, json: { position: 1 } })))
        .status,
    ).toBe(200);
    const reversed = [...made].reverse().map((b) => b.id);
    expect((await readJson(apiClient(s, a).books.order.$post({ json: { ids: reversed } }))).status).toBe(200);
    expect((await publicTitles(a)).sort()).toEqual([...keptTitles].sort());
    expect(await stored(a.id)).toEqual(expect.arrayContaining(rows));

    // Swapping: hide one chosen book, then the hidden one may be shown.
    const out = keep[4] as string;
    expect(
      (await readJson(apiClient(s, a).books[":id"].visibility.$patch({ param: { id: out }, json: { visible: false } })))
        .status,
    ).toBe(200);
    const shown = await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: target.id }, json: { visible: true } }),
    );
    expect(shown.status).toBe(200);
    expect(shown.body.book).toMatchObject({ visibilityEnabled: true, hiddenByPlan: false });
    expect((await site(a, `/book/${target.id}`)).status).toBe(301);
    expect((await site(a, `/book/${out}`)).status).toBe(404);

    // An upgrade shows again what the plan hid, not the book the author hid by hand.
    expect((await changePlan(a, { tier: "midi" })).status).toBe(200);
    const after = await stored(a.id);
    expect(after.filter((r) => !r.visible).map((r) => r.id)).toEqual([out]);
    expect(after.some((r) => r.byPlan)).toBe(false);
    expect((await publicTitles(a)).length).toBe(9);
  });

  it("without a choice, a confirmed downgrade keeps the first books in the author's order", async () => {
    const { a, made } = await authorWithBooks("midi", 7);
    expect((await changePlan(a, { tier: "mini", confirmHiddenBooks: true })).status).toBe(200);
    expect(await publicTitles(a)).toEqual(made.slice(0, 5).map((b) => b.title));
    const byPlan = (await stored(a.id)).filter((r) => r.byPlan).map((r) => r.id);
    expect(byPlan.sort()).toEqual(
      made
        .slice(5)
        .map((b) => b.id)
        .sort(),
    );
  });

  it("the sandbox portal's confirmed downgrade fits the books too", async () => {
    const { a, made } = await authorWithBooks("midi", 6);
    const portal = await s.api("/billing/sandbox/portal", {
      method: "POST",
      cookie: a.cookie,
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ action: "change-plan", tier: "mini", confirmHiddenBooks: "yes" }).toString(),
    });
    expect(portal.status).toBe(303);
    expect((await stored(a.id)).filter((r) => r.visible)).toHaveLength(5);
    expect(await publicTitles(a)).toEqual(made.slice(0, 5).map((b) => b.title));
  });

  it("refuses a choice of more books than the plan shows, or of someone else's book, changing nothing", async () => {
    const { a, made } = await authorWithBooks("midi", 7);
    const other = await authorWithBooks("mini", 1);
    const before = await stored(a.id);

    const tooMany = await changePlan(a, { tier: "mini", keepVisible: made.slice(0, 6).map((b) => b.id) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({
      field: "keepVisible",
      message: "The Mini plan shows 5 books: choose at most 5.",
    });
    const theirs = await changePlan(a, {
      tier: "mini",
      keepVisible: [other.made[0]?.id ?? "", ...made.slice(0, 4).map((b) => b.id)],
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.message).toBe("Book not found");
    const repeated = await changePlan(a, { tier: "mini", keepVisible: [made[0]?.id ?? "", made[0]?.id ?? ""] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.message).toBe("keepVisible must not repeat a book");

    expect(await tierOf(a.id)).toBe("midi");
    expect(await stored(a.id)).toEqual(before);
    expect((await stored(other.a.id)).every((r) => r.visible)).toBe(true);
  });

  it("another author can neither show nor hide my book", async () => {
    const { a, made } = await authorWithBooks("mini", 2);
    const stranger = await createAuthor(s);
    const id = made[0]?.id as string;
    for (const visible of [false, true]) {
      const r = await readJson(
        apiClient(s, stranger).books[":id"].visibility.$patch({ param: { id }, json: { visible } }),
      );
      expect(r.status).toBe(404);
      expect(r.body.error.message).toBe("Book not found");
    }
    const [row] = await s.database.db
      .select({ visible: books.visibilityEnabled })
      .from(books)
      .where(and(eq(books.userId, a.id), eq(books.id, id)));
    expect(row?.visible).toBe(true);
  });

  it("never shows more books than the plan, when a downgrade and a show race", async () => {
    const { a, made } = await authorWithBooks("midi", 8);
    // Two hidden by hand: six shown on midi, and room to show more.
    for (const b of made.slice(6))
      await readJson(apiClient(s, a).books[":id"].visibility.$patch({ param: { id: b.id }, json: { visible: false } }));
    const [down, ...shows] = await Promise.all([
      changePlan(a, { tier: "mini", keepVisible: made.slice(0, 5).map((b) => b.id) }),
      ...made
        .slice(6)
        .map((b) =>
          readJson(apiClient(s, a).books[":id"].visibility.$patch({ param: { id: b.id }, json: { visible: true } })),
        ),
    ]);
    expect(down?.status).toBe(200);
    for (const r of shows) expect([200, 403]).toContain(r.status);
    expect((await stored(a.id)).filter((r) => r.visible).length).toBeLessThanOrEqual(5);
  });
});

describe("a plan changed at the provider (a Stripe webhook)", () => {
  it("fits the books to the smaller plan, and a bigger plan shows them again", async () => {
    const { a, made } = await authorWithBooks("midi", 7);
    const snapshot = (tier: "mini" | "midi") => ({
      id: `sub_${a.id}`,
      customerId: `cus_${a.id}`,
      status: "active",
      cancelAtPeriodEnd: false,
      currentPeriodEnd: new Date(Date.now() + 20 * 864e5),
      trialEnd: null,
      userId: a.id,
      tier,
      currency: "GBP" as const,
      customDomain: false,
    });
    const event = (n: number, tier: "mini" | "midi") => ({
      id: `evt_${a.id}_${n}`,
      type: "customer.subscription.updated",
      created: new Date(),
      kind: "subscription_changed" as const,
      subscription: snapshot(tier),
    });
    await processBillingEvents(s.database.db, [event(1, "mini")], "stripe");
    expect(await tierOf(a.id)).toBe("mini");
    // No choice was made at Stripe: the first five in the author's order stay.
    expect(await publicTitles(a)).toEqual(made.slice(0, 5).map((b) => b.title));
    expect(
      (await stored(a.id))
        .filter((r) => r.byPlan)
        .map((r) => r.id)
        .sort(),
    ).toEqual(
      made
        .slice(5)
        .map((b) => b.id)
        .sort(),
    );
    await processBillingEvents(s.database.db, [event(2, "midi")], "stripe");
    expect((await stored(a.id)).every((r) => r.visible && !r.byPlan)).toBe(true);
    expect(await publicTitles(a)).toEqual(made.map((b) => b.title));
  });
});

describe("the migration that hides books already over the plan", () => {
  it("hides, as hidden by the plan, exactly the books readers were not shown", async () => {
    const a = await createAuthor(s, { tier: "mini" });
    const db = s.database.db;
    // Inserted around the service, out of order, as a tier written by hand would leave them.
    const positions = [6, 2, 0, 5, 3, 1, 4];
    const rows = await db
      .insert(books)
      .values(
        positions.map((p) => ({ userId: a.id, title: `Book ${p}`, slug: `book-${p}`, author: "A", sortOrder: p })),
      )
      .returning({ id: books.id, sortOrder: books.sortOrder });
    await db
      .insert(books)
      .values({ userId: a.id, title: "Draft", slug: "draft", author: "A", sortOrder: 7, visibilityEnabled: false });
    // No subscription at all reads as mini too.
    const bare = await createSignedInUser(s);
    await db.insert(books).values(
      [0, 1, 2, 3, 4, 5].map((p) => ({
        userId: bare.id,
        title: `Bare ${p}`,
        slug: `bare-${p}`,
        author: "A",
        sortOrder: p,
      })),
    );
    const before = await publicTitles(a);
    expect(before).toEqual(["Book 0", "Book 1", "Book 2", "Book 3", "Book 4"]);

    const file = new URL("../../../db/migrations/0019_hide_books_over_plan.sql", import.meta.url);
    await db.execute(sql.raw(readFileSync(file, "utf8")));

    const after = await stored(a.id);
    const over = rows.filter((r) => r.sortOrder >= 5).map((r) => r.id);
    expect(
      after
        .filter((r) => r.byPlan)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...over].sort());
    expect(after.filter((r) => r.visible)).toHaveLength(5);
    expect((await stored(bare.id)).filter((r) => r.visible)).toHaveLength(5);
    // The Books screen can now swap them (readers' view is unchanged: the same first five).
    expect((await readJson(apiClient(s, a).books.capacity.$get())).body).toMatchObject({
      used: 8,
      shown: 5,
      hiddenByPlan: 2,
    });
  });
});
