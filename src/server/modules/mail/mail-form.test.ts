// The form of our mail (ADR 065), read at a real SMTP server as a mail program reads it: an HTML
// part and a text part, Auto-Submitted on automatic mail only, the author's name in From at our
// address, and on mail to readers the one-click unsubscribe (RFC 8058) that works without a
// session, from the mail program (POST) or from the page behind the link (GET shows a button).
// The mail is DKIM-signed, and mailauth checks the signature against a key in a real DNS server.
import { generateKeyPairSync } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { and, eq } from "drizzle-orm";
import { dkimVerify } from "mailauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterSubscribers, releaseAlerts } from "../../../db/schema/index.ts";
import { startTestDnsServer, type TestDnsServer } from "../../../testing/dns-server.ts";
import { decodeWords, readMail } from "../../../testing/mail-message.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { createLogger } from "../../lib/logger.ts";
import { sendLaunchDayMails } from "../books/launches.service.ts";
import { unsubscribeUrl } from "./unsubscribe.service.ts";

let s: TestServer;
let dns: TestDnsServer;
let jane: TestAuthor;
let other: TestAuthor;
const FROM_ADDRESS = "mail@bookplate.test";
const RELEASE = "2031-03-14";
const host = (a: TestAuthor) => `${a.subdomain}.localhost`;
/** The site as links in mail the server makes name it (SITES_DOMAIN is localhost and its port). */
const siteHost = (a: TestAuthor) => `${a.subdomain}.localhost:${s.port}`;

/** The public key as a DKIM TXT record, split in strings of at most 255 characters as DNS wants. */
function dkimRecord(spkiDer: Buffer): string[] {
  const record = `v=DKIM1; k=rsa; p=${spkiDer.toString("base64")}`;
  return record.match(/.{1,255}/g) ?? [];
}

async function book(a: TestAuthor, title: string, releaseDate = RELEASE): Promise<string> {
  const res = await s.api("/api/books", {
    method: "POST",
    cookie: a.cookie,
    json: { title, author: a.name, releaseDate },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { book: { id: string } }).book.id;
}

const used = new Set<string>();
/** A reader asks on the book page and confirms through the mailed link. */
async function signUp(a: TestAuthor, slug: string, email: string) {
  const asked = await s.postOnHost(host(a), `/book/${slug}/alert`, { email });
  expect(asked.status).toBe(200);
  const mail = await s.smtp.waitUntil(
    (m) => !used.has(m.raw) && m.to.includes(email) && m.text.includes(host(a)) && /confirm/i.test(m.subject),
  );
  used.add(mail.raw);
  const link = new URL(firstLink(mail.text));
  const done = await s.postOnHost(host(a), "/alerts/confirm", { token: link.searchParams.get("token") ?? "" });
  expect(done.status).toBe(200);
}

const alertsOf = (email: string) =>
  s.database.db
    .select({ userId: releaseAlerts.userId, bookId: releaseAlerts.bookId, status: releaseAlerts.status })
    .from(releaseAlerts)
    .where(eq(releaseAlerts.email, email));

beforeAll(async () => {
  dns = await startTestDnsServer();
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  dns.set("bp1._domainkey.bookplate.test", {
    TXT: [dkimRecord(publicKey.export({ type: "spki", format: "der" }))],
  });
  s = await startTestServer({
    MAIL_FROM: `Bookplate <${FROM_ADDRESS}>`,
    DKIM_DOMAIN: "bookplate.test",
    DKIM_SELECTOR: "bp1",
    DKIM_PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  });
  jane = await createAuthor(s, { name: "Jane Quill" });
  other = await createAuthor(s, { name: "Otto Other" });
}, 120_000);
afterAll(async () => {
  await s?.close();
  await dns?.close();
});

describe("mail to readers", () => {
  let adaMail = "";
  let benMail = "";

  it("is HTML and text, from the author's site name, signed, with a one-click unsubscribe", async () => {
    await book(jane, "The Comet Year");
    await book(jane, "The Second Comet", "2032-01-01");
    await book(other, "Elsewhere", "2031-06-01");
    await signUp(jane, "the-comet-year", "ada@example.com");
    await signUp(jane, "the-comet-year", "ben@example.com");
    // Ada waits for Jane's next book too, and for another author's.
    await signUp(jane, "the-second-comet", "ada@example.com");
    await signUp(other, "elsewhere", "ada@example.com");

    expect(await sendLaunchDayMails(depsOf(), new Date(`${RELEASE}T00:10:00Z`))).toBe(2);
    const caught = await s.smtp.waitFor("ada@example.com", "The Comet Year is out now");
    adaMail = caught.raw;
    benMail = (await s.smtp.waitFor("ben@example.com", "The Comet Year is out now")).raw;
    const mail = readMail(adaMail);

    expect(mail.type).toBe("multipart/alternative");
    expect(mail.parts.map((p) => p.type)).toEqual(["text/plain", "text/html"]);
    const text = mail.part("text/plain")?.body ?? "";
    const html = mail.part("text/html")?.body ?? "";
    expect(text).toContain("The Comet Year by Jane Quill is out today.");
    expect(text).toContain(`See the book: http://${siteHost(jane)}/book/the-comet-year\n`);
    // Tables and inline styles, one column of at most 600 px, no style sheet to fetch.
    expect(html).toContain('<table role="presentation"');
    expect(html).toContain("max-width:600px");
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).not.toMatch(/<link|<style|<script/i);
    expect(html).toContain(`href="http://${siteHost(jane)}/book/the-comet-year"`);

    // From: the site's name at our address; replies go to the author.
    expect(mail.headers.get("from")).toHaveLength(1);
    expect(decodeWords(mail.header("from"))).toMatch(/^"?Jane Quill's Books"? <mail@bookplate\.test>$/);
    expect(mail.header("reply-to")).toContain(jane.email);
    expect(mail.header("auto-submitted")).toBe("auto-generated");

    // RFC 8058: the link in the header, the same link in the footer of both parts.
    const listUnsubscribe = mail.header("list-unsubscribe");
    expect(listUnsubscribe).toMatch(
      new RegExp(`^<http://${siteHost(jane)}/unsubscribe\\?token=a\\.[0-9a-f-]{36}\\.[A-Za-z0-9_-]{43}>$`),
    );
    expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const link = listUnsubscribe.slice(1, -1);
    expect(text).toContain(`Unsubscribe from release alerts: ${link}`);
    expect(html).toContain(`href="${link}"`);

    // DKIM: mailauth verifies the signature with the public key the DNS server gives.
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const resolve = (name: string, type: string) => resolver.resolve(name, type) as Promise<string[][]>;
    const verified = await dkimVerify(Buffer.from(adaMail), { resolver: resolve });
    expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([["bookplate.test", "pass"]]);
    expect(dns.asked).toContain("bp1._domainkey.bookplate.test");
    // A changed mail fails the same check.
    const changed = adaMail.replace("is out today", "is out tomorrow");
    const refused = await dkimVerify(Buffer.from(changed), { resolver: resolve });
    expect(refused.results[0]?.status.result).not.toBe("pass");
  });

  it("a GET of the link only shows a button; the mail program's one-click POST unsubscribes at once", async () => {
    const link = new URL(readMail(adaMail).header("list-unsubscribe").slice(1, -1));
    const path = `${link.pathname}${link.search}`;
    const page = await s.onHost(host(jane), path);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Press the button to stop getting these emails.");
    expect(page.body).toContain('action="/unsubscribe"');
    expect(page.body).toContain(`value="${link.searchParams.get("token")}"`);
    expect((await alertsOf("ada@example.com")).map((r) => r.status)).toEqual(["confirmed", "confirmed", "confirmed"]);

    // Another author's site does nothing with Jane's token; nor does a forged one.
    const elsewhere = await s.postOnHost(host(other), path, { "List-Unsubscribe": "One-Click" });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toContain("This unsubscribe link is not valid.");
    const forged = `${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`;
    expect((await s.postOnHost(host(jane), forged, { "List-Unsubscribe": "One-Click" })).status).toBe(404);
    expect((await alertsOf("ada@example.com")).every((r) => r.status === "confirmed")).toBe(true);

    // RFC 8058: the POST to the link itself, no cookie, no form token: done, at once.
    const oneClick = await s.postOnHost(host(jane), path, { "List-Unsubscribe": "One-Click" });
    expect(oneClick.status).toBe(200);
    expect(oneClick.body).toContain("You&#x27;re unsubscribed");
    const after = await alertsOf("ada@example.com");
    expect(after.filter((r) => r.userId !== other.id).map((r) => r.status)).toEqual(["unsubscribed", "unsubscribed"]);
    // Her alert on the other author's site stays.
    expect(after.filter((r) => r.userId === other.id).map((r) => r.status)).toEqual(["confirmed"]);
    // Jane's next book will not mail her.
    expect(await sendLaunchDayMails(depsOf(), new Date("2032-01-01T00:10:00Z"))).toBe(1);
    await s.smtp.waitFor("ada@example.com", "Elsewhere is out now");
    await s.mailer.idle();
    expect(s.smtp.mails.filter((m) => m.subject === "The Second Comet is out now")).toHaveLength(0);
  });

  it("an old confirmation link does not undo it; asking again starts a new double opt-in", async () => {
    const [old] = await s.database.db
      .select({ token: releaseAlerts.confirmToken, bookId: releaseAlerts.bookId })
      .from(releaseAlerts)
      .where(and(eq(releaseAlerts.email, "ada@example.com"), eq(releaseAlerts.userId, jane.id)));
    const again = await s.postOnHost(host(jane), "/alerts/confirm", { token: old?.token ?? "" });
    expect(again.status).toBe(404);
    expect((await alertsOf("ada@example.com")).filter((r) => r.userId === jane.id).map((r) => r.status)).toEqual([
      "unsubscribed",
      "unsubscribed",
    ]);
    await signUp(jane, "the-second-comet", "ada@example.com");
    const statuses = (await alertsOf("ada@example.com")).filter((r) => r.userId === jane.id).map((r) => r.status);
    expect(statuses.sort()).toEqual(["confirmed", "unsubscribed"]);
  });

  it("the page's button unsubscribes (a reader without a mail program's button)", async () => {
    const link = new URL(readMail(benMail).header("list-unsubscribe").slice(1, -1));
    const token = link.searchParams.get("token") ?? "";
    const done = await s.postOnHost(host(jane), "/unsubscribe", { token });
    expect(done.status).toBe(200);
    expect(done.body).toContain("You will get no more of these emails.");
    expect((await alertsOf("ben@example.com")).map((r) => r.status)).toEqual(["unsubscribed"]);
    // A link that is not one: a clear page, nothing asked of the database.
    const bad = await s.onHost(host(jane), "/unsubscribe?token=nope");
    expect(bad.status).toBe(404);
    expect(bad.body).toContain("This unsubscribe link is not valid.");
  });

  it("a newsletter subscriber's link works on their author's site only", async () => {
    const [row] = await s.database.db
      .insert(newsletterSubscribers)
      .values({
        userId: jane.id,
        email: "cy@example.com",
        status: "confirmed",
        confirmToken: `t-${Date.now()}-abcdefgh`,
      })
      .returning({ id: newsletterSubscribers.id });
    const sub = { list: "newsletter" as const, userId: jane.id, subscriberId: row?.id ?? "" };
    const link = new URL(unsubscribeUrl(s.unsubscribeKey, `http://${host(jane)}`, sub));
    const path = `${link.pathname}${link.search}`;
    const status = async () =>
      (
        await s.database.db
          .select({ status: newsletterSubscribers.status })
          .from(newsletterSubscribers)
          .where(and(eq(newsletterSubscribers.userId, jane.id), eq(newsletterSubscribers.email, "cy@example.com")))
      )[0]?.status;
    expect((await s.postOnHost(host(other), path, { "List-Unsubscribe": "One-Click" })).status).toBe(404);
    expect(await status()).toBe("confirmed");
    expect((await s.postOnHost(host(jane), path, { "List-Unsubscribe": "One-Click" })).status).toBe(200);
    expect(await status()).toBe("unsubscribed");
  });
});

const depsOf = () => ({ db: s.database.db, mailer: s.mailer, logger: createLogger("silent") });

describe("every other mail", () => {
  it("a verification mail has the same words, an HTML part, Auto-Submitted and no list headers", async () => {
    const email = `new-${Date.now()}@example.com`;
    const res = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "New Author", email, password: "correct horse battery" },
    });
    expect(res.status).toBe(200);
    const caught = await s.smtp.waitFor(email, "Confirm your email for Bookplate");
    const mail = readMail(caught.raw);
    expect(mail.type).toBe("multipart/alternative");
    const text = mail.part("text/plain")?.body ?? "";
    expect(text).toMatch(
      /^Hello,\r?\n\r?\nWelcome to Bookplate\. Please confirm your email address by opening this link:\r?\n\r?\nhttp\S+\r?\n\r?\nThe link works for 24 hours\.\s*$/,
    );
    const link = firstLink(text);
    expect(mail.part("text/html")?.body).toContain(`href="${link.replace(/&/g, "&amp;")}"`);
    expect(mail.header("auto-submitted")).toBe("auto-generated");
    expect(mail.header("list-unsubscribe")).toBe("");
    expect(mail.header("from")).toBe(`Bookplate <${FROM_ADDRESS}>`);
  });

  it("a display name with quotes, commas, a line break and an emoji stays one safe From header", async () => {
    const name = 'Ann "The Pen", Smith\r\nBcc: victim@example.com 🚀';
    await s.mailer.send({
      to: "reader@example.com",
      subject: "Names",
      text: "Hello <b>there</b> & welcome",
      fromName: name,
    });
    const caught = await s.smtp.waitFor("reader@example.com", "Names");
    expect(caught.to).toEqual(["reader@example.com"]);
    const mail = readMail(caught.raw);
    expect(mail.headers.has("bcc")).toBe(false);
    expect(mail.headers.get("from")).toHaveLength(1);
    expect(caught.raw).not.toMatch(/^Bcc:/im);
    const from = decodeWords(mail.header("from"));
    expect(from).toContain('Ann "The Pen", Smith Bcc: victim@example.com 🚀');
    expect(from.endsWith(`<${FROM_ADDRESS}>`)).toBe(true);
    // A mail a person sends (not marked automatic) has no Auto-Submitted.
    expect(mail.header("auto-submitted")).toBe("");
    // The HTML part escapes the text.
    expect(mail.part("text/html")?.body).toContain("Hello &lt;b&gt;there&lt;/b&gt; &amp; welcome");
  });
});
