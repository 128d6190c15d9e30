// Series through the API (ADR 034): a book's series name makes the series; renaming moves the
// books and keeps the old address leading to the new one; the reading order is the author's to set; removing a series keeps its books. Another
// author can neither see nor change them, and bad input changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, callApi, type Json, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

startFileServer();
let jane: TestAuthor;
let other: TestAuthor;

async function book(a: TestAuthor, title: string, seriesName: string | null, orderInSeries: number | null) {
  const res = await readJson(
    apiClient(s, a).books.$post({ json: { title, author: "Jane", seriesName, orderInSeries } }),
  );
  expect(res.status).toBe(201);
  return res.body.book.id as string;
}
const seriesOf = async (a: TestAuthor) => (await readJson(apiClient(s, a).series.$get())).body.series as Json[];
const titles = (x: Json | undefined) => (x?.books ?? []).map((b: Json) => b.title);

beforeAll(async () => {
  jane = await createAuthor(s, { tier: "maxi" });
  other = await createAuthor(s, { tier: "maxi" });
});

describe("series", () => {
  it("are made by the books that name them (case and spaces aside), books in reading order", async () => {
    await book(jane, "Dawn", "The Long Day", 1);
    await book(jane, "Dusk", "  the long day ", 3);
    await book(jane, "Noon", "THE LONG DAY", 2);
    await book(jane, "Alone", null, null);
    const all = await seriesOf(jane);
    expect(all.map((x) => [x.name, x.slug])).toEqual([["The Long Day", "the-long-day"]]);
    expect(titles(all[0])).toEqual(["Dawn", "Noon", "Dusk"]);
  });

  it("can be started empty, described, and refuse a second series of the same name", async () => {
    const made = await readJson(
      apiClient(s, jane).series.$post({
        json: {
          name: "Night Songs",
          description: "Poems after dark.",
        },
      }),
    );
    expect(made.status).toBe(201);
    expect(made.body.series).toMatchObject({ name: "Night Songs", slug: "night-songs", books: [] });
    const again = await readJson(apiClient(s, jane).series.$post({ json: { name: " night songs" } }));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ field: "name", message: "You already have a series with this name" });
    for (const bad of [{ name: "" }, { name: "x".repeat(201) }, { name: "Ok", extra: 1 }, { description: "no name" }]) {
      // Wrong shapes on purpose, which the typed client refuses to send.
      expect((await callApi(s, jane, "POST", "/api/series", bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await seriesOf(jane)).map((x) => x.name)).toEqual(["Night Songs", "The Long Day"]);
  });

  it("renames with its books, and the site follows", async () => {
    const target = (await seriesOf(jane)).find((x) => x.name === "The Long Day");
    const renamed = await readJson(
      apiClient(s, jane).series[":id"].$patch({ param: { id: target?.id }, json: { name: "The Longest Day" } }),
    );
    expect(renamed.status).toBe(200);
    expect(titles(renamed.body.series)).toEqual(["Dawn", "Noon", "Dusk"]);
    // Every book of the series now carries the new name, whatever spelling it had.
    const books = (await readJson(apiClient(s, jane).books.$get())).body.books as Json[];
    expect(books.filter((b) => b.seriesName === "The Longest Day")).toHaveLength(3);
    const page = await s.onHost(`${jane.subdomain}.localhost`, "/series/the-longest-day");
    expect(page.status).toBe(200);
    expect(page.body).toContain("<h1>The Longest Day</h1>");
    // Links to the old address still arrive.
    const old = await s.onHost(`${jane.subdomain}.localhost`, "/series/the-long-day");
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe("/series/the-longest-day");
    // Into another series' name: refused, nothing moves.
    const clash = await readJson(
      apiClient(s, jane).series[":id"].$patch({ param: { id: target?.id }, json: { name: "NIGHT SONGS" } }),
    );
    expect(clash.status).toBe(409);
    expect((await seriesOf(jane)).map((x) => x.name)).toEqual(["Night Songs", "The Longest Day"]);
  });

  it("takes a reading order of exactly its books, and shows it at once", async () => {
    const target = (await seriesOf(jane)).find((x) => x.name === "The Longest Day") ?? {};
    const ids = target.books.map((b: Json) => b.id) as string[];
    const stranger = await book(jane, "Stranger", null, null);
    for (const bookIds of [ids.slice(1), [...ids, stranger], [...ids.slice(0, 1), ...ids.slice(0, 2)], ["not-an-id"]]) {
      expect(
        (await readJson(apiClient(s, jane).series[":id"].order.$put({ param: { id: target.id }, json: { bookIds } })))
          .status,
      ).toBe(400);
    }
    expect(titles((await seriesOf(jane)).find((x) => x.id === target.id))).toEqual(["Dawn", "Noon", "Dusk"]);
    const ordered = await readJson(
      apiClient(s, jane).series[":id"].order.$put({ param: { id: target.id }, json: { bookIds: [...ids].reverse() } }),
    );
    expect(ordered.status).toBe(200);
    expect(ordered.body.series.books.map((b: Json) => [b.title, b.orderInSeries])).toEqual([
      ["Dusk", 1],
      ["Noon", 2],
      ["Dawn", 3],
    ]);
    const page = await s.onHost(`${jane.subdomain}.localhost`, "/series/the-longest-day");
    expect([...page.body.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1])).toEqual(["Dusk", "Noon", "Dawn"]);
  });

  it("shows its description on its page", async () => {
    const target = (await seriesOf(jane)).find((x) => x.name === "The Longest Day");
    const described = await readJson(
      apiClient(s, jane).series[":id"].$patch({
        param: { id: target?.id },
        json: {
          description: "One day, three books.",
        },
      }),
    );
    expect(described.body.series.description).toBe("One day, three books.");
    const page = await s.onHost(`${jane.subdomain}.localhost`, "/series/the-longest-day");
    expect(page.body).toContain("One day, three books.");
    expect(
      (await readJson(apiClient(s, jane).series[":id"].$patch({ param: { id: target?.id }, json: {} }))).status,
    ).toBe(400);
  });

  it("belongs to its author only", async () => {
    const mine = await seriesOf(jane);
    const id = mine[0]?.id;
    expect(await seriesOf(other)).toEqual([]);
    expect(
      (await readJson(apiClient(s, other).series[":id"].$patch({ param: { id }, json: { name: "Mine now" } }))).status,
    ).toBe(404);
    expect(
      (await readJson(apiClient(s, other).series[":id"].order.$put({ param: { id }, json: { bookIds: [] } }))).status,
    ).toBe(404);
    expect((await readJson(apiClient(s, other).series[":id"].$delete({ param: { id } }))).status).toBe(404);
    expect((await readJson(apiClient(s, other).series[":id"].$delete({ param: { id: "not-an-id" } }))).status).toBe(
      404,
    );
    // The same name is free for another author.
    expect((await readJson(apiClient(s, other).series.$post({ json: { name: mine[0]?.name } }))).status).toBe(201);
    expect(await seriesOf(jane)).toEqual(mine);
    expect((await apiClient(s).series.$get()).status).toBe(401);
  });

  it("goes when removed; its books stay, in no series", async () => {
    const target = (await seriesOf(jane)).find((x) => x.name === "The Longest Day");
    expect((await readJson(apiClient(s, jane).series[":id"].$delete({ param: { id: target?.id } }))).status).toBe(204);
    expect((await seriesOf(jane)).map((x) => x.name)).toEqual(["Night Songs"]);
    const books = (await readJson(apiClient(s, jane).books.$get())).body.books as Json[];
    expect(books.map((b) => b.title).sort()).toEqual(["Alone", "Dawn", "Dusk", "Noon", "Stranger"]);
    expect(books.every((b) => b.seriesName === null && b.orderInSeries === null)).toBe(true);
    expect((await s.onHost(`${jane.subdomain}.localhost`, "/series/the-longest-day")).status).toBe(404);
    // Its earlier addresses go with it.
    expect((await s.onHost(`${jane.subdomain}.localhost`, "/series/the-long-day")).status).toBe(404);
  });

  it("leads every earlier address of a renamed series to its current one, on its author's site only", async () => {
    await book(jane, "Wave", "Tide", 1);
    const id = (await seriesOf(jane)).find((x) => x.name === "Tide")?.id;
    const site = (path: string) => s.onHost(`${jane.subdomain}.localhost`, path);
    const leadsTo = async (path: string) => {
      const res = await site(path);
      return res.status === 301 ? res.headers.location : res.status;
    };
    const rename = async (name: string) =>
      expect((await readJson(apiClient(s, jane).series[":id"].$patch({ param: { id }, json: { name } }))).status).toBe(
        200,
      );

    await rename("Tides");
    expect(await leadsTo("/series/tide")).toBe("/series/tides");
    await rename("High Tide");
    // Straight to the current address, not along the chain.
    expect(await leadsTo("/series/tide")).toBe("/series/high-tide");
    expect(await leadsTo("/series/tides")).toBe("/series/high-tide");
    expect(await leadsTo("/series/high-tide")).toBe(200);
    // A spelling that keeps the address records nothing.
    await rename("HIGH TIDE");
    expect(await leadsTo("/series/high-tide")).toBe(200);
    // Taking back an earlier name makes that address the series' own again.
    await rename("Tide");
    expect(await leadsTo("/series/tide")).toBe(200);
    expect(await leadsTo("/series/tides")).toBe("/series/tide");
    expect(await leadsTo("/series/high-tide")).toBe("/series/tide");
    // Another author's site knows nothing of them; a refused rename records nothing.
    expect((await s.onHost(`${other.subdomain}.localhost`, "/series/tides")).status).toBe(404);
    const before = await leadsTo("/series/night-songs");
    expect(
      (await readJson(apiClient(s, jane).series[":id"].$patch({ param: { id }, json: { name: "Night Songs" } })))
        .status,
    ).toBe(409);
    expect(await leadsTo("/series/tide")).toBe(200);
    expect(await leadsTo("/series/night-songs")).toBe(before);
  });
  it("refuses a name that would share another series' web address, from the Series screen and the book form", async () => {
    const names = async () => (await seriesOf(jane)).map((x) => x.name);
    const before = await names();
    const books = async () =>
      ((await readJson(apiClient(s, jane).books.$get())).body.books as Json[]).map((b) => b.title);
    const titlesBefore = await books();
    const clash = (other: string) =>
      `This name would share its web address with your series “${other}”: use that series, or a name that differs by more than punctuation or accents`;

    const made = await readJson(apiClient(s, jane).series.$post({ json: { name: "Night-Songs!" } }));
    expect(made.status).toBe(409);
    expect(made.body.error).toMatchObject({ field: "name", message: clash("Night Songs") });
    const tide = (await seriesOf(jane)).find((x) => x.name === "Tide")?.id;
    const renamed = await readJson(
      apiClient(s, jane).series[":id"].$patch({ param: { id: tide }, json: { name: "Nïght Songs" } }),
    );
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toMatchObject({ field: "name", message: clash("Night Songs") });
    const added = await readJson(
      apiClient(s, jane).books.$post({
        json: {
          title: "Echo",
          author: "Jane",
          seriesName: "night, songs",
        },
      }),
    );
    expect(added.status).toBe(409);
    expect(added.body.error).toMatchObject({ field: "seriesName", message: clash("Night Songs") });
    expect(await names()).toEqual(before);
    expect(await books()).toEqual(titlesBefore);

    // The series' own name, in any case, is that series; so is a book already in it.
    const echo = await book(jane, "Echo", " NIGHT SONGS", 1);
    const moved = await readJson(
      apiClient(s, jane).books[":id"].$patch({ param: { id: echo }, json: { seriesName: "Tide!" } }),
    );
    expect(moved.status).toBe(409);
    expect(moved.body.error).toMatchObject({ field: "seriesName", message: clash("Tide") });
    expect(
      (
        await readJson(
          apiClient(s, jane).books[":id"].$patch({ param: { id: echo }, json: { seriesName: "Night Songs" } }),
        )
      ).status,
    ).toBe(200);
    expect(titles((await seriesOf(jane)).find((x) => x.name === "Night Songs"))).toEqual(["Echo"]);
    // Another author's series are no bar.
    expect((await readJson(apiClient(s, other).series.$post({ json: { name: "Tide!" } }))).status).toBe(201);
  });
});
