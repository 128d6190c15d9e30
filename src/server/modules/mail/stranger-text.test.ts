// No mail carries text a stranger wrote to an address that never said it wants mail from us
// (ADR 048): every form that mails an address someone typed is fed phishing-style text here, and
// what reaches the real SMTP server is searched for it.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiles, supportTickets, websites } from "../../../db/schema/index.ts";
import type { CaughtMail } from "../../../testing/smtp-catcher.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, createStaffUser, type TestAuthor, type TestUser } from "../../../testing/users.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";

const PHISH = {
  name: "PayPal Security Team",
  subject: "Your account is locked: verify at evil.example/login",
  message: "Call +1 555 0100 or visit http://evil.example/restore to keep your account",
};
/** Words of the stranger's text that must appear nowhere in the mail. */
const MARKERS = ["PayPal", "evil.example", "555 0100", "locked"];

function expectNoStrangerText(mail: CaughtMail) {
  for (const m of MARKERS) {
    expect(mail.subject, `subject of "${mail.subject}"`).not.toContain(m);
    expect(mail.text, `body of "${mail.subject}"`).not.toContain(m);
  }
}

let s: TestServer;
let author: TestAuthor;
let staff: TestUser;
beforeAll(async () => {
  s = await startTestServer();
  author = await createAuthor(s);
  staff = await createStaffUser(s, "admin", { prefix: "staff" });
  // The author's own words, which readers' addresses have not asked for either.
  // The site's own newsletter form is shown while it has no subscribers yet (ADR 052).
  await s.database.db
    .update(websites)
    .set({ websiteName: PHISH.subject, showWhenEmpty: ["newsletter"] })
    .where(eq(websites.userId, author.id));
  await s.database.db.update(profiles).set({ name: PHISH.name }).where(eq(profiles.id, author.id));
  await markSiteChanged(s.database.db, author.id);
});
afterAll(async () => {
  await s?.close();
});

async function post(host: string, path: string, form: Record<string, string>) {
  return (await s.postOnHost(host, path, form)).status;
}

const marketingContact = (email: string) =>
  s.api("/contact", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...PHISH, email }).toString(),
  });

describe("the marketing contact form", () => {
  it("acknowledges with a fixed text, once a day per address, and still files every message", async () => {
    const victim = "victim-marketing@example.com";
    for (let i = 0; i < 3; i++) expect((await marketingContact(victim)).status).toBe(200);
    const ack = await s.smtp.waitFor(victim, "We received your message");
    expectNoStrangerText(ack);
    await s.mailer.idle();
    expect(s.smtp.mails.filter((m) => m.to.includes(victim))).toHaveLength(1);
    const tickets = await s.database.db.select().from(supportTickets).where(eq(supportTickets.email, victim));
    expect(tickets).toHaveLength(3);
    expect(tickets[0]?.subject).toBe(PHISH.subject);

    // Staff's answer goes to the same unconfirmed address: staff's words only.
    const id = tickets[0]?.id ?? "";
    const answered = await s.api(`/api/admin/tickets/${id}/respond`, {
      method: "POST",
      cookie: staff.cookie,
      json: { response: "We have no record of you; please ignore." },
    });
    expect(answered.status).toBe(200);
    const answer = await s.smtp.waitFor(victim, "Bookplate support answered");
    expect(answer.text).toContain("We have no record of you");
    expectNoStrangerText(answer);
  });
});

describe("a site's forms", () => {
  it("confirms a newsletter sign-up naming the site by its address, not by the author's words", async () => {
    const victim = "victim-newsletter@example.com";
    expect(await post(`${author.subdomain}.localhost`, "/newsletter", { email: victim })).toBe(200);
    const mail = await s.smtp.waitFor(victim, "Please confirm your newsletter subscription");
    expect(mail.subject).toContain(`${author.subdomain}.localhost`);
    expectNoStrangerText(mail);
    expect(mail.text).not.toContain(PHISH.name);
  });

  it("confirms a release alert without the book's title or the site's name", async () => {
    const res = await s.api("/api/books", {
      method: "POST",
      cookie: author.cookie,
      json: { title: PHISH.message.slice(0, 80), author: PHISH.name, releaseDate: "2031-03-14" },
    });
    expect(res.status).toBe(201);
    const bookId = (await res.json()).book.id as string;
    const victim = "victim-alert@example.com";
    expect(await post(`${author.subdomain}.localhost`, `/book/${bookId}/alert`, { email: victim })).toBe(200);
    const mail = await s.smtp.waitFor(victim, "Please confirm your release alert");
    expect(mail.text).toContain("14 March 2031");
    expectNoStrangerText(mail);
  });

  it("asks a new contact address to confirm without the author's words", async () => {
    const victim = "victim-contact@example.com";
    const saved = await s.api("/api/site/contact", {
      method: "PUT",
      cookie: author.cookie,
      json: { contactEmail: victim, enableContactForm: true, antispamEnabled: true, socialLinks: [] },
    });
    expect(saved.status).toBe(200);
    const mail = await s.smtp.waitFor(victim, "Confirm the contact address");
    expectNoStrangerText(mail);
    // A reader's message is not relayed there meanwhile (ADR 014).
    expect(
      await post(`${author.subdomain}.localhost`, "/contact", { ...PHISH, email: "reader@example.com", website: "" }),
    ).toBe(200);
    await s.mailer.idle();
    expect(s.smtp.mails.filter((m) => m.to.includes(victim))).toEqual([mail]);
  });
});

describe("accounts", () => {
  it("never puts the name a sign-up typed into the mails to that address", async () => {
    const victim = "victim-signup@example.com";
    const signUp = () =>
      s.api("/api/auth/sign-up/email", {
        method: "POST",
        json: { name: PHISH.subject, email: victim, password: "correct horse battery" },
      });
    expect((await signUp()).status).toBe(200);
    expectNoStrangerText(await s.smtp.waitFor(victim, "Confirm your email"));
    const reset = await s.api("/api/auth/request-password-reset", {
      method: "POST",
      json: { email: victim, redirectTo: "/reset-password" },
    });
    expect(reset.status).toBe(200);
    expectNoStrangerText(await s.smtp.waitFor(victim, "Reset your Bookplate password"));
    // A second sign-up for the address tells its (unverified) account, again without the name.
    expect((await signUp()).status).toBe(200);
    await s.mailer.idle();
    const all = s.smtp.mails.filter((m) => m.to.includes(victim));
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const m of all) expectNoStrangerText(m);
  });
});
