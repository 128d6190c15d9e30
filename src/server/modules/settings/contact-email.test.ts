// The contact form never relays to an address whose owner did not agree (ADR 014).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactSettings } from "../../../db/schema/index.ts";
import { CONTACT_MESSAGES } from "../../../shared/schemas/contact-settings.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

startFileServer();

const VERIFY_SUBJECT = "Confirm the contact address of your Bookplate website";
let n = 0;
const address = (name: string) => `${name}-${Date.now().toString(36)}${n++}@relay.example.net`;

const saveContact = (a: TestAuthor, contactEmail: string | null, antispamEnabled = false) =>
  readJson(
    apiClient(s, a).site.contact.$put({
      json: { contactEmail, enableContactForm: true, antispamEnabled, socialLinks: [] },
    }),
  );
const readContact = (a: TestAuthor) => readJson(apiClient(s, a).site.contact.$get());
const resend = (a: TestAuthor) => readJson(apiClient(s, a).site.contact.verification.$post());

/** A reader's message through the site's contact form, on the author's own host. */
async function sendMessage(a: TestAuthor, subject: string) {
  const form = { name: "Reader", email: "reader@example.com", subject, message: `Attacker text for ${subject}` };
  return (await s.postOnHost(`${a.subdomain}.localhost`, "/contact", form)).status;
}

/** Opens a verification link as a browser would: the page, then its button. */
async function follow(link: string) {
  const page = await fetch(link);
  const html = await page.text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const res = await fetch(`${s.url}/contact-email/verify`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ token }).toString(),
  });
  return { pageStatus: page.status, pageHtml: html, status: res.status, html: await res.text(), token };
}

/** What reached the SMTP server, once the outbox has sent all it could (ADR 048). */
const mailsTo = async (to: string, subjectPart: string) => {
  await s.mailer.idle();
  return s.smtp.mails.filter((m) => m.to.includes(to.toLowerCase()) && m.subject.includes(subjectPart));
};

describe("an unverified contact address", () => {
  it("never receives the form's messages: with anti-spam off they reach only the account's email", async () => {
    const a = await createAuthor(s);
    const relay = address("victim");
    const saved = await saveContact(a, relay);
    expect(saved.status).toBe(200);
    expect(saved.body.contactEmail).toBe(relay);
    expect(saved.body.contactEmailState).toBe("pending");
    expect(saved.body.accountEmail).toBe(a.email);
    expect(saved.body).not.toHaveProperty("verifyTokenHash");

    for (let i = 0; i < 10; i++) expect(await sendMessage(a, `spam ${i}`)).toBe(200);
    for (let i = 0; i < 10; i++) await s.smtp.waitFor(a.email, `spam ${i}`);
    expect(await mailsTo(relay, "New message")).toEqual([]);
    expect(s.smtp.mails.filter((m) => m.to.includes(relay) && m.text.includes("Attacker text"))).toEqual([]);
    // The only mail the address got is the one link, which carries none of a reader's text.
    expect(await mailsTo(relay, VERIFY_SUBJECT)).toHaveLength(1);
  });

  it("receives them once its owner followed the link; the link works once", async () => {
    const a = await createAuthor(s);
    const target = address("owner");
    await saveContact(a, target);
    const mail = await s.smtp.waitFor(target, VERIFY_SUBJECT);
    const link = firstLink(mail.text);
    expect(link.startsWith(`${s.url}/contact-email/verify?token=`)).toBe(true);
    // Opening the link changes nothing by itself (mail scanners open links).
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    expect((await readContact(a)).body.contactEmailState).toBe("pending");

    const done = await follow(link);
    expect(done.status).toBe(200);
    expect(done.html).toContain("Contact address verified");
    expect((await readContact(a)).body.contactEmailState).toBe("verified");
    expect(await sendMessage(a, "after verification")).toBe(200);
    await s.smtp.waitFor(target, "after verification");

    const again = await follow(link);
    expect(again.status).toBe(400);
    expect(again.html).toContain("This verification link is not valid or has expired.");
  });

  it("is unverified again when the address changes, and the account's own address needs no link", async () => {
    const a = await createAuthor(s);
    const first = address("first");
    await saveContact(a, first);
    await follow(firstLink((await s.smtp.waitFor(first, VERIFY_SUBJECT)).text));
    expect((await readContact(a)).body.contactEmailState).toBe("verified");

    const second = address("second");
    expect((await saveContact(a, second)).body.contactEmailState).toBe("pending");
    await s.smtp.waitFor(second, VERIFY_SUBJECT);
    expect(await sendMessage(a, "after change")).toBe(200);
    await s.smtp.waitFor(a.email, "after change");
    expect(await mailsTo(second, "after change")).toEqual([]);
    expect(await mailsTo(first, "after change")).toEqual([]);
    // Back to the first address: it is a change too, so it is proven again.
    expect((await saveContact(a, first)).body.contactEmailState).toBe("pending");

    const own = await saveContact(a, a.email.toUpperCase());
    expect(own.body.contactEmailState).toBe("account");
    expect(await mailsTo(a.email, VERIFY_SUBJECT)).toEqual([]);
    // Saving other settings with the same pending address sends no new link.
    const third = address("third");
    await saveContact(a, third);
    await saveContact(a, third, true);
    await s.smtp.waitFor(third, VERIFY_SUBJECT);
    expect(await mailsTo(third, VERIFY_SUBJECT)).toHaveLength(1);
  });
});

describe("verification links", () => {
  it("a bad, malformed or expired token gives a clear page and changes nothing", async () => {
    const a = await createAuthor(s);
    const target = address("expiring");
    await saveContact(a, target);
    const link = firstLink((await s.smtp.waitFor(target, VERIFY_SUBJECT)).text);

    const malformed = await fetch(`${s.url}/contact-email/verify?token=%3Cscript%3E`);
    expect(malformed.status).toBe(400);
    const malformedHtml = await malformed.text();
    expect(malformedHtml).toContain(CONTACT_MESSAGES.linkInvalid);
    expect(malformedHtml).not.toContain("<script>");
    const wrong = await follow(`${s.url}/contact-email/verify?token=${"A".repeat(43)}`);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(CONTACT_MESSAGES.linkInvalid);

    await s.database.db
      .update(contactSettings)
      .set({ verifyTokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(contactSettings.userId, a.id));
    const expired = await follow(link);
    expect(expired.status).toBe(400);
    expect(expired.html).toContain(CONTACT_MESSAGES.linkInvalid);
    expect((await readContact(a)).body.contactEmailState).toBe("pending");
    expect(await sendMessage(a, "still pending")).toBe(200);
    await s.smtp.waitFor(a.email, "still pending");
    expect(await mailsTo(target, "still pending")).toEqual([]);
  });

  it("are stored hashed, and a link for an address that was since replaced verifies nothing", async () => {
    const a = await createAuthor(s);
    const old = address("old");
    await saveContact(a, old);
    const oldLink = firstLink((await s.smtp.waitFor(old, VERIFY_SUBJECT)).text);
    const token = new URL(oldLink).searchParams.get("token") ?? "";
    const [row] = await s.database.db.select().from(contactSettings).where(eq(contactSettings.userId, a.id));
    expect(row?.verifyTokenHash).toBeTruthy();
    expect(row?.verifyTokenHash).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);

    await saveContact(a, address("new"));
    expect((await follow(oldLink)).status).toBe(400);
    expect((await readContact(a)).body.contactEmailState).toBe("pending");
  });

  it("belong to one author: another author cannot read or verify someone else's address", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const aAddress = address("a-contact");
    await saveContact(a, aAddress);
    const aLink = firstLink((await s.smtp.waitFor(aAddress, VERIFY_SUBJECT)).text);

    // B sees only B's settings, and nothing of any token.
    const bView = await readContact(b);
    expect(JSON.stringify(bView.body)).not.toContain(aAddress);
    expect(JSON.stringify((await readContact(a)).body)).not.toContain(new URL(aLink).searchParams.get("token"));
    // B has nothing pending: a resend cannot touch A's address.
    const bResend = await resend(b);
    expect(bResend.status).toBe(400);
    expect(bResend.body.error.message).toBe(CONTACT_MESSAGES.nothingPending);
    expect(await mailsTo(aAddress, VERIFY_SUBJECT)).toHaveLength(1);

    // B sets A's account address as B's contact address: for B it is someone else's, so it needs a link.
    const claimed = await saveContact(b, a.email);
    expect(claimed.body.contactEmailState).toBe("pending");
    expect(await sendMessage(b, "to b")).toBe(200);
    await s.smtp.waitFor(b.email, "to b");
    expect(await mailsTo(a.email, "to b")).toEqual([]);

    // A's link, followed by anyone (even with B's session), verifies A's address and nothing of B's.
    const res = await fetch(`${s.url}/contact-email/verify`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: b.cookie },
      body: new URLSearchParams({ token: new URL(aLink).searchParams.get("token") ?? "" }).toString(),
    });
    expect(res.status).toBe(200);
    expect((await readContact(a)).body.contactEmailState).toBe("verified");
    expect((await readContact(b)).body.contactEmailState).toBe("pending");
  });

  it("are resent on request, at most 3 an hour to one address; a refused resend keeps the last link", async () => {
    const a = await createAuthor(s);
    const target = address("resend");
    await saveContact(a, target);
    await s.smtp.waitFor(target, VERIFY_SUBJECT);
    expect((await resend(a)).status).toBe(200);
    const second = await resend(a);
    expect(second.status).toBe(200);
    expect(second.body.contactEmailState).toBe("pending");
    // Three links reached the address; the last one is the one that works.
    const links = (await mailsTo(target, VERIFY_SUBJECT)).map((m) => firstLink(m.text));
    expect(links).toHaveLength(3);

    const refused = await resend(a);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(CONTACT_MESSAGES.tooManyLinks);
    expect(await mailsTo(target, VERIFY_SUBJECT)).toHaveLength(3);

    // Another author asking for the same address counts against the same allowance.
    const other = await createAuthor(s);
    expect((await saveContact(other, target)).body.contactEmailState).toBe("pending");
    expect(await mailsTo(target, VERIFY_SUBJECT)).toHaveLength(3);

    expect((await follow(links[0] ?? "")).status).toBe(400);
    expect((await follow(links[2] ?? "")).status).toBe(200);
    expect((await readContact(a)).body.contactEmailState).toBe("verified");
    expect((await readContact(other)).body.contactEmailState).toBe("pending");
  });

  it("need a session to resend", async () => {
    const res = await apiClient(s).site.contact.verification.$post();
    expect(res.status).toBe(401);
  });
});
