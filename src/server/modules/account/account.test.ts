// Leaving with everything, then leaving for good: the export holds every book, post, subscriber,
// message and picture of the author (and nothing of anyone else, no secrets); deletion cancels the
// subscription at the (fake) Stripe server, then nothing of the author remains in the database or
// in storage, and the subdomain is free again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contactMessages,
  newsletterSubscribers,
  subscriptions,
  supportTickets,
  user,
} from "../../../db/schema/index.ts";
import { apiClient, expectStatus, type Json, readJson } from "../../../testing/api-client.ts";
import { type FakeStripe, startFakeStripe } from "../../../testing/fake-stripe.ts";
import { filesUnder } from "../../../testing/files.ts";
import { runNewsletterJobOn } from "../../../testing/newsletters.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { unzip } from "../../lib/zip.ts";

let s: TestServer;
let fake: FakeStripe;
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-account-"));
beforeAll(async () => {
  fake = await startFakeStripe();
  s = await startTestServer({
    DATA_DIR: dataDir,
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
    ...fake.env,
  });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const picture = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 60, b: 60 } } })
    .png()
    .toBuffer();

/** Uploads are multipart: sent by path. */
async function upload(a: { cookie: string }, path: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "p.png");
  const res = await s.api(path, { method: "POST", cookie: a.cookie, body: form });
  expect(res.status, path).toBeLessThan(300);
  return (await res.json()) as Json;
}

const uploadsOf = (id: string) => filesUnder(join(dataDir, "uploads")).filter((f) => f.split("/")[1] === id);

/** An author with a bit of everything: a book with cover, link, genre and review; a post with a picture; photo, hero, a subscriber, a message. */
async function furnished(name: string): Promise<TestAuthor & { bookId: string }> {
  const a = await createAuthor(s, { name });
  const api = apiClient(s, a);
  const { book } = await expectStatus(api.books.$post({ json: { title: `${name}'s Novel`, author: name } }), 201);
  const param = { id: book.id };
  await upload(a, `/api/books/${book.id}/cover`, await picture(400, 600));
  await expectStatus(
    api.books[":id"]["retailer-links"].$put({
      param,
      json: { retailerLinks: [{ retailerName: "Bookshop", retailerUrl: "https://bookshop.example/x" }] },
    }),
    200,
  );
  await expectStatus(api.books[":id"].genres.$put({ param, json: { genres: ["Mystery"] } }), 200);
  await expectStatus(
    api.books[":id"].reviews.$post({ param, json: { reviewText: `Loved ${name}'s book`, reviewerName: "A Reader" } }),
    201,
  );
  await upload(a, "/api/profile/photo", await picture(300, 300));
  await upload(a, "/api/site/hero", await picture(1000, 500));
  const image = (await upload(a, "/api/posts/images", await picture(800, 400))).image;
  await expectStatus(
    api.posts.$post({ json: { title: `${name} writes`, content: `<p>Hello</p><img src="${image.url}" alt="x">` } }),
    201,
  );
  await s.database.db.insert(newsletterSubscribers).values({
    userId: a.id,
    email: `reader-of-${a.id}@example.com`,
    status: "confirmed",
    confirmToken: `tok-${a.id}`,
    signupPage: "/newsletter",
  });
  await s.database.db.insert(contactMessages).values({
    userId: a.id,
    name: "A Reader",
    email: "reader@example.com",
    subject: "Hello",
    message: `A message for ${name}`,
  });
  return { ...a, bookId: book.id };
}

describe("account export", () => {
  it("holds every book, post, subscriber, message and uploaded image of the author, and no secrets", async () => {
    const a = await furnished("Ada Export");
    const other = await furnished("Bea Other");
    const res = await apiClient(s, a).account.export.$get();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="bookplate-${a.subdomain}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`),
    );
    const files = unzip(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(String(files.get("bookplate-export/data.json"))) as Json;
    expect(data.account).toMatchObject({ id: a.id, email: a.email });
    expect(data.website.subdomain).toBe(a.subdomain);
    expect(data.books).toHaveLength(1);
    expect(data.books[0]).toMatchObject({
      title: "Ada Export's Novel",
      genres: ["Mystery"],
      retailerLinks: [{ retailerName: "Bookshop", retailerUrl: "https://bookshop.example/x" }],
      reviews: [{ reviewText: "Loved Ada Export's book" }],
    });
    expect(data.posts.map((p: Json) => p.title)).toEqual(["Ada Export writes"]);
    expect(data.newsletterSubscribers).toEqual([
      expect.objectContaining({
        email: `reader-of-${a.id}@example.com`,
        status: "confirmed",
        signupPage: "/newsletter",
        importedAt: null,
      }),
    ]);
    expect(data.contactMessages.map((m: Json) => m.message)).toEqual(["A message for Ada Export"]);

    // Every file the author uploaded is in images/, under the path its address names.
    const images = [...files.keys()].filter((k) => k.startsWith("bookplate-export/images/"));
    expect(images.map((k) => k.slice("bookplate-export/images/".length)).sort()).toEqual(uploadsOf(a.id));
    // Two sizes each (small originals are never enlarged): cover, photo, hero, post image.
    expect(images).toHaveLength(8);
    const coverUrl = String(data.books[0].coverImageUrl);
    expect(files.get(`bookplate-export/images/${coverUrl.slice("/uploads/".length)}`)?.length).toBeGreaterThan(0);

    // Nothing of the other author, and no credentials.
    const text = String(files.get("bookplate-export/data.json"));
    expect(text).not.toContain("Bea Other");
    expect(text).not.toContain(other.id);
    expect(text).not.toMatch(/tok-|verificationToken|confirmToken|password/i);
  });

  it("leaves out a sent newsletter the author deleted (hidden and blanked), and keeps the others", async () => {
    const a = await furnished("Cy Letters");
    const client = apiClient(s, a);
    const made = async (subject: string) =>
      (await (await client.newsletters.$post({ json: { subject, content: `<p>${subject} body</p>` } })).json())
        .newsletter.id as string;
    const gone = await made("Deleted after it went");
    const kept = await made("Still the author's");
    expect((await client.newsletters[":id"].send.$post({ param: { id: gone }, json: {} })).status).toBe(200);
    await s.mailer.idle();
    await runNewsletterJobOn(s);
    expect((await readJson(client.newsletters[":id"].$get({ param: { id: gone } }))).body.newsletter.status).toBe(
      "sent",
    );
    expect((await client.newsletters[":id"].$delete({ param: { id: gone } })).status).toBe(204);
    const files = unzip(new Uint8Array(await (await client.account.export.$get()).arrayBuffer()));
    const text = String(files.get("bookplate-export/data.json"));
    const data = JSON.parse(text) as Json;
    expect(data.newsletters.map((n: Json) => n.id)).toEqual([kept]);
    expect(text).not.toContain(gone);
    expect(text).not.toContain("Deleted after it went");
  });

  it("needs a session", async () => {
    expect((await apiClient(s).account.export.$get()).status).toBe(401);
    expect((await apiClient(s).account.delete.$post({ json: { confirmation: "x" } })).status).toBe(401);
  });
});

describe("account deletion", () => {
  async function rowsOf(id: string, email: string) {
    const tables = [
      "profiles where id = $1",
      "websites where user_id = $1",
      "books where user_id = $1",
      "blog_posts where user_id = $1",
      "newsletter_subscribers where user_id = $1",
      "contact_messages where user_id = $1",
      "subscriptions where user_id = $1",
      "session where user_id = $1",
      "account where user_id = $1",
      "website_customization where user_id = $1",
      "contact_settings where user_id = $1",
    ];
    let n = 0;
    for (const t of tables) {
      const [table, where] = t.split(" where ");
      const r = await s.database.db.execute(
        sql.raw(`select count(*)::int as n from ${table} where ${String(where).replace("$1", `'${id}'`)}`),
      );
      n += Number((r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    }
    const tickets = await s.database.db
      .select()
      .from(supportTickets)
      .where(sql`lower(${supportTickets.email}) = ${email.toLowerCase()}`);
    return n + tickets.length;
  }

  it("refuses without the exact email typed, and changes nothing", async () => {
    const a = await furnished("Cal Careful");
    for (const confirmation of ["", "DELETE", "someone@example.com", `${a.email}x`]) {
      const res = await apiClient(s, a).account.delete.$post({ json: { confirmation } });
      expect(res.status, confirmation).toBe(400);
      expect(((await res.json()) as Json).error).toMatchObject({
        message: "Type your account's email address exactly to confirm",
        field: "confirmation",
      });
    }
    // A misnamed field on purpose, which the typed client refuses to send.
    const bad = await s.api("/api/account/delete", { method: "POST", cookie: a.cookie, json: { confirm: a.email } });
    expect(bad.status).toBe(400);
    expect((await apiClient(s, a).profile.$get()).status).toBe(200);
    expect(uploadsOf(a.id).length).toBeGreaterThan(0);
  });

  it("cancels the subscription at Stripe, then removes the account, its site, rows and files", async () => {
    const a = await furnished("Dee Departing");
    const b = await furnished("Eve Staying");
    const stripeSub = fake.putSubscription({ status: "active", metadata: { userId: a.id } });
    await s.database.db
      .update(subscriptions)
      .set({ provider: "stripe", providerSubscriptionId: String(stripeSub.id), status: "active" })
      .where(eq(subscriptions.userId, a.id));
    await s.database.db.insert(supportTickets).values({ userId: a.id, email: a.email, subject: "Hi", message: "Help" });
    const bBefore = await rowsOf(b.id, b.email);
    const bFiles = uploadsOf(b.id);
    expect(await rowsOf(a.id, a.email)).toBeGreaterThan(5);

    // The provider refuses: nothing is deleted, and the author is told to try again.
    fake.failNextRequests(1);
    const refused = await apiClient(s, a).account.delete.$post({ json: { confirmation: a.email } });
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as Json).error.message).toContain("nothing was deleted");
    expect((await apiClient(s, a).profile.$get()).status).toBe(200);

    // Case and spaces aside, it is the account's address.
    const res = await readJson(
      apiClient(s, a).account.delete.$post({ json: { confirmation: `  ${a.email.toUpperCase()} ` } }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect(fake.subscriptions.get(String(stripeSub.id))?.status).toBe("canceled");
    expect(fake.requests.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${stripeSub.id}`)).toBe(
      true,
    );

    expect(await rowsOf(a.id, a.email)).toBe(0);
    expect(await s.database.db.select().from(user).where(eq(user.id, a.id))).toEqual([]);
    expect(uploadsOf(a.id)).toEqual([]);
    expect((await apiClient(s, a).profile.$get()).status).toBe(401);
    const site = await s.onHost(`${a.subdomain}.localhost`, "/");
    expect(site.status).toBe(404);
    expect(site.body).toContain("Author not found");
    // The subdomain is free again.
    const check = await expectStatus(
      apiClient(s).onboarding["subdomain-availability"].$get({ query: { subdomain: a.subdomain } }),
      200,
    );
    expect(check.available).toBe(true);

    // The other author is untouched.
    expect(await rowsOf(b.id, b.email)).toBe(bBefore);
    expect(uploadsOf(b.id)).toEqual(bFiles);
  });
});
