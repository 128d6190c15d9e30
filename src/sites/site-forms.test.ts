// The forms of a public site (contact, newsletter; the demo read-only) and the owner's Edit Book button.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessages, contactSettings, newsletterSubscribers, websites } from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { apiClient } from "../testing/api-client.ts";
import { app, demo, hit, makeAuthor, s, startSiteServer } from "../testing/sites.ts";
import { createAuthor } from "../testing/users.ts";
import { maskEmail } from "./pages/parts.tsx";

startSiteServer();

describe("forms", () => {
  it("keeps the demo author read-only on its own host and its preview, not only under /demo", async () => {
    const db = s.database.db;
    const [site] = await db.select().from(websites).where(eq(websites.subdomain, "demo"));
    const owner = site?.userId ?? "";
    await s.mailer.idle();
    const before = {
      messages: (await db.select().from(contactMessages).where(eq(contactMessages.userId, owner))).length,
      subscribers: (await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.userId, owner)))
        .length,
      mails: s.smtp.mails.length,
    };
    const contact = { name: "R", email: "r@example.com", subject: "Demo host", message: "Hi" };
    for (const send of [
      () => demo("/contact", { form: contact }),
      () => demo("/newsletter", { form: { email: "demo-host@example.com" } }),
      () => app("/author/demo/contact", { form: contact }),
      () => app("/demo/newsletter", { form: { email: "demo-path@example.com" } }),
    ]) {
      const res = await send();
      expect(res.status).toBe(403);
      expect(res.body).toContain("The demo site is read-only.");
    }
    const page = await demo("/contact");
    expect(page.body).toContain("This is the read-only demo: its forms are disabled.");
    expect(page.body).toMatch(/<button[^>]*type="submit"[^>]*disabled/);
    expect((await db.select().from(contactMessages).where(eq(contactMessages.userId, owner))).length).toBe(
      before.messages,
    );
    expect((await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.userId, owner))).length).toBe(
      before.subscribers,
    );
    await s.mailer.idle();
    expect(s.smtp.mails.length).toBe(before.mails);
  });

  it("tells a new subscriber to confirm through the mailed link", async () => {
    await makeAuthor("confirmfirst");
    const res = await hit("confirmfirst.localhost", "/newsletter", { form: { email: "new-reader@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toContain("Thank you for subscribing! You&#x27;ll hear from me soon.");
    expect(res.body).toContain("please open the email we&#x27;ve just sent you and confirm your subscription");
    await s.smtp.waitFor("new-reader@example.com", "Please confirm your newsletter subscription");
  });

  it("stores and mails a contact message; a filled honeypot drops it", async () => {
    // Its contact address was never verified (ADR 014): messages go to the account's own email.
    const id = await makeAuthor("mailme");
    const ok = await hit("mailme.localhost", "/contact", {
      form: { name: "Reader", email: "reader@example.com", subject: "Hello there", message: "Loved it", website: "" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("Thank you for your message! I&#x27;ll get back to you soon.");
    const mail = await s.smtp.waitFor("mailme@example.com", "Hello there");
    await s.mailer.idle();
    expect(s.smtp.mails.some((m) => m.to.includes("contact-mailme@example.com"))).toBe(false);
    expect(mail.text).toContain("Loved it");
    expect(mail.raw).toMatch(/^Reply-To: Reader <reader@example\.com>$/im);
    expect(mail.raw).toMatch(/^From: .*no-?reply/im);
    const bot = await hit("mailme.localhost", "/contact", {
      form: { name: "Bot", email: "bot@example.com", subject: "Spam", message: "Buy", website: "http://spam" },
    });
    expect(bot.status).toBe(200);
    const rows = await s.database.db.select().from(contactMessages).where(eq(contactMessages.userId, id));
    expect(rows.map((r) => r.subject)).toEqual(["Hello there"]);
    const bad = await hit("mailme.localhost", "/contact", {
      form: { name: "x", email: "nope", subject: "s", message: "m" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("valid email");
  });

  it("limits one sender to 5 messages an hour while anti-spam is on, and not when it is off", async () => {
    const id = await makeAuthor("flooded");
    const send = (n: number, email = "flood@example.com") =>
      hit("flooded.localhost", "/contact", {
        form: { name: "Flood", email, subject: `Message ${n}`, message: "Again", website: "" },
      });
    for (let n = 1; n <= 5; n++) expect((await send(n)).status).toBe(200);
    const sixth = await send(6);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toContain("Too many messages. Please try again later.");
    const stored = async () =>
      (await s.database.db.select().from(contactMessages).where(eq(contactMessages.userId, id))).length;
    expect(await stored()).toBe(5);

    await s.database.db.update(contactSettings).set({ antispamEnabled: false }).where(eq(contactSettings.userId, id));
    await markSiteChanged(s.database.db, id);
    expect((await send(7)).status).toBe(200);
    expect(await stored()).toBe(6);
  });

  it("stores a pending newsletter subscriber with a token", async () => {
    const id = await makeAuthor("subs");
    const res = await hit("subs.localhost", "/newsletter", { form: { email: "Fan@Example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toContain("Thank you for subscribing! You&#x27;ll hear from me soon.");
    await hit("subs.localhost", "/newsletter", { form: { email: "fan@example.com" } });
    const rows = await s.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.userId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("pending");
    expect(rows[0]?.confirmToken.length).toBeGreaterThan(20);
    expect((await hit("subs.localhost", "/newsletter", { form: { email: "bad" } })).status).toBe(400);
  });
});

describe("the Edit Book button", () => {
  it("shows only to the signed-in owner, only on the app host's preview", async () => {
    const owner = await createAuthor(s);
    const other = await createAuthor(s);
    const created = await apiClient(s, owner).books.$post({ json: { title: "Owned Book", author: owner.name } });
    expect(created.status).toBe(201);
    const { id: bookId, slug } = ((await created.json()) as { book: { id: string; slug: string } }).book;
    expect(slug).toBe("owned-book");
    const path = `/author/${owner.subdomain}/book/${slug}`;
    const fab = `<a class="fab" href="/edit-book/${bookId}">`;

    const mine = await app(path, { cookie: owner.cookie });
    expect(mine.status).toBe(200);
    expect(mine.body).toContain(fab);
    expect(mine.body).toContain("Edit Book");
    expect(mine.headers["cache-control"]).toBe("no-store");

    for (const cookie of [other.cookie, undefined, "better-auth.session_token=forged.value"]) {
      const r = await app(path, cookie ? { cookie } : {});
      expect(r.status).toBe(200);
      expect(r.body).not.toContain("Edit Book");
    }
    // Tenant hosts never show it, even to a request that carries the owner's cookie.
    const tenant = await hit(`${owner.subdomain}.localhost`, `/book/${slug}`, { cookie: owner.cookie });
    expect(tenant.status).toBe(200);
    expect(tenant.body).not.toContain("Edit Book");
    expect((await app(`/author/${owner.subdomain}/about`, { cookie: owner.cookie })).body).not.toContain("Edit Book");
  });
});

describe("maskEmail", () => {
  it("follows the spec's rule", () => {
    expect(maskEmail("ab@x.com")).toBe("ab@x.com");
    expect(maskEmail("abc@x.com")).toBe("a***c@x.com");
    expect(maskEmail("eleanor@example.com")).toBe("e*****r@example.com");
  });
});
