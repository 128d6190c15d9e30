import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { profiles } from "../../../db/schema/index.ts";
import { BIO_MESSAGES, PROFILE_LIMITS } from "../../../shared/schemas/profile.ts";
import { apiClient, type Client, type JsonBody, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

startFileServer();
let jane: TestAuthor;
let other: TestAuthor;

beforeAll(async () => {
  jane = await createAuthor(s, { name: "Jane Bio" });
  other = await createAuthor(s, { name: "Olive Other" });
});

const aboutOf = (a: TestAuthor) => s.onHost(`${a.subdomain}.localhost`, "/about");

const patch = (a: TestAuthor, json: JsonBody<Client["profile"]["$patch"]>) => apiClient(s, a).profile.$patch({ json });
/** A PATCH with a wrong shape on purpose, which the typed client refuses to send. */
const patchLoose = (a: TestAuthor, json: unknown) => s.api("/api/profile", { method: "PATCH", cookie: a.cookie, json });
const rowOf = async (a: TestAuthor) => {
  const [row] = await s.database.db.select().from(profiles).where(eq(profiles.id, a.id));
  if (!row) throw new Error("no profile row");
  return row;
};
const errorOf = async (res: { json(): Promise<unknown> }) =>
  ((await res.json()) as { error: { message: string; field?: string } }).error;

describe("author bio", () => {
  it("saves a cleaned bio that GET /api/profile returns", async () => {
    const res = await patch(jane, {
      bio: '<p>I write <strong>mysteries</strong>.</p><script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a>',
    });
    expect(res.status).toBe(200);
    const saved = ((await res.json()) as { profile: { bio: string } }).profile.bio;
    expect(saved).toContain("<strong>mysteries</strong>");
    for (const bad of ["<script", "onerror", "javascript:", "alert("]) expect(saved).not.toContain(bad);

    const got = (await (await apiClient(s, jane).profile.$get()).json()) as { profile: { bio: string } };
    expect(got.profile.bio).toBe(saved);
    expect((await rowOf(jane)).bio).toBe(saved);
  });

  it("refuses a bio that is too long and changes nothing", async () => {
    const before = await rowOf(jane);
    const res = await patch(jane, { bio: `<p>${"a".repeat(PROFILE_LIMITS.bio)}</p>`, tagline: "Should not stick" });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ message: BIO_MESSAGES.tooLong, field: "bio" });
    expect(await rowOf(jane)).toEqual(before);
  });

  it("stores a bio with no text left as empty", async () => {
    const res = await patch(jane, { bio: "<p>  </p><script>x()</script>" });
    expect(res.status).toBe(200);
    expect((await rowOf(jane)).bio).toBe("");
  });

  it("saves tagline and an https photo, refusing other addresses", async () => {
    const ok = await patch(jane, { tagline: "  Stories with teeth ", authorPhotoUrl: "https://img.example/jane.jpg" });
    expect(ok.status).toBe(200);
    expect(await rowOf(jane)).toMatchObject({
      tagline: "Stories with teeth",
      authorPhotoUrl: "https://img.example/jane.jpg",
    });

    for (const bad of ["javascript:alert(1)", "http://img.example/jane.jpg", "/relative.jpg"]) {
      const res = await patch(jane, { authorPhotoUrl: bad });
      expect(res.status, bad).toBe(400);
      expect((await errorOf(res)).message).toBe(BIO_MESSAGES.photoScheme);
    }
    expect((await rowOf(jane)).authorPhotoUrl).toBe("https://img.example/jane.jpg");

    const cleared = await patch(jane, { tagline: "", authorPhotoUrl: "" });
    expect(cleared.status).toBe(200);
    expect(await rowOf(jane)).toMatchObject({ tagline: null, authorPhotoUrl: null });
  });

  it("shows the new bio on the public About page at once (cache dropped)", async () => {
    expect((await patch(jane, { bio: "<p>First <em>version</em></p>" })).status).toBe(200);
    const first = await aboutOf(jane);
    expect(first.status).toBe(200);
    expect(first.body).toContain("First <em>version</em>");
    // Served again from the page cache, unless the save drops it.
    expect((await aboutOf(jane)).body).toContain("First <em>version</em>");

    expect(
      (await patch(jane, { bio: "<p>Second <strong>version</strong></p>", tagline: "Now with a tagline" })).status,
    ).toBe(200);
    const second = await aboutOf(jane);
    expect(second.body).toContain("Second <strong>version</strong>");
    expect(second.body).toContain("Now with a tagline");
    expect(second.body).not.toContain("First <em>version</em>");

    const preview = await s.onHost("localhost", `/author/${jane.subdomain}/about`);
    expect(preview.body).toContain("Second <strong>version</strong>");
  });

  it("never touches another author's profile; the owner comes from the session only", async () => {
    // A bio of their own, so that their About page is one readers see (ADR 052).
    expect((await patch(other, { bio: "<p>Other's words</p>" })).status).toBe(200);
    const before = await rowOf(other);
    // Whatever names another author in the body is refused, not obeyed.
    for (const body of [
      { id: other.id, bio: "<p>hijack</p>" },
      { userId: other.id, bio: "<p>hijack</p>" },
    ]) {
      const res = await patchLoose(jane, body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/^Unknown field: (id|userId)$/);
    }
    expect((await patch(jane, { bio: "<p>Jane's own words</p>" })).status).toBe(200);
    expect(await rowOf(other)).toEqual(before);
    const page = await aboutOf(other);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain("Jane&#x27;s own words");
    expect(page.body).not.toContain("Jane's own words");

    // The other author reads only their own profile.
    const theirs = (await (await apiClient(s, other).profile.$get()).json()) as {
      profile: { id: string; bio: string };
    };
    expect(theirs.profile.id).toBe(other.id);
    expect(theirs.profile.bio).toBe(before.bio);
  });

  it("needs a session", async () => {
    const res = await apiClient(s).profile.$patch({ json: { bio: "<p>anon</p>" } });
    expect(res.status).toBe(401);
  });

  it("keeps the writing journey in the author's order; the About page shows it, and none when emptied", async () => {
    const a = await createAuthor(s, { name: "Journey Author" });
    // A new author has none, and the About page invents none.
    expect((await readJson(apiClient(s, a).profile.$get())).body.profile.writingJourney).toEqual([]);
    expect((await aboutOf(a)).body).not.toContain("My Writing Journey");

    const journey = [
      { year: "2012", title: "  First notebook ", description: "Filled on the night bus." },
      { year: "Today", title: "Book three", description: "" },
    ];
    const res = await patch(a, { writingJourney: journey, genre: "Cosy Mystery" });
    expect(res.status).toBe(200);
    const saved = ((await res.json()) as { profile: { writingJourney: unknown; genre: string } }).profile;
    expect(saved.writingJourney).toEqual([
      { year: "2012", title: "First notebook", description: "Filled on the night bus." },
      { year: "Today", title: "Book three", description: "" },
    ]);
    expect(saved.genre).toBe("Cosy Mystery");
    let about = (await aboutOf(a)).body;
    expect(about).toContain("My Writing Journey");
    expect(about.indexOf("First notebook")).toBeLessThan(about.indexOf("Book three"));
    expect(about).toContain('<p class="kicker">Cosy Mystery</p>');

    // Reordered: the page follows.
    await patch(a, { writingJourney: [saved.writingJourney as never[]].flat().reverse() });
    about = (await aboutOf(a)).body;
    expect(about.indexOf("Book three")).toBeLessThan(about.indexOf("First notebook"));

    expect((await patch(a, { writingJourney: [] })).status).toBe(200);
    about = (await aboutOf(a)).body;
    expect(about).not.toContain("My Writing Journey");
    expect(about).not.toContain("First notebook");
  });

  it("refuses a bad journey or genre with a message naming the field, and changes nothing", async () => {
    const a = await createAuthor(s, { name: "Strict Journey" });
    const kept = [{ year: "2020", title: "Kept", description: "" }];
    await patch(a, { writingJourney: kept });
    const entry = { year: "2021", title: "T", description: "" };
    for (const [body, message, field] of [
      [{ writingJourney: [{ ...entry, title: "  " }] }, "Title is required", "writingJourney.0.title"],
      [{ writingJourney: [entry, { ...entry, year: "" }] }, "Year is required", "writingJourney.1.year"],
      [
        { writingJourney: [{ ...entry, year: "y".repeat(31) }] },
        "Year must be at most 30 characters",
        "writingJourney.0.year",
      ],
      [
        { writingJourney: [{ ...entry, description: "d".repeat(501) }] },
        "Description must be at most 500 characters",
        "writingJourney.0.description",
      ],
      [{ writingJourney: Array(13).fill(entry) }, "at most 12 entries", "writingJourney"],
      [{ writingJourney: "2020 started" }, "Writing journey must be a list", "writingJourney"],
      [{ writingJourney: [{ ...entry, extra: 1 }] }, "Unknown field", undefined],
      [{ genre: "g".repeat(61) }, "Genre must be at most 60 characters", "genre"],
    ] as const) {
      const res = await patchLoose(a, body);
      expect(res.status, message).toBe(400);
      const error = await errorOf(res);
      expect(error.message).toContain(message);
      if (field) expect(error.field).toBe(field);
    }
    const row = await rowOf(a);
    expect(row.writingJourney).toEqual(kept);
    // No genre given at setup: none stored, and none shown (ADR 052).
    expect(row.genre).toBe("");
  });
});
