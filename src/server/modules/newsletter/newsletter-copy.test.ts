// A reader's copy made from the newsletter's template (rendered once per newsletter, the reader's
// parts filled in) is byte for byte the copy made from scratch for that reader alone — with
// counted links, a book card, the postal address and an unsubscribe link — and the mail that
// reached the SMTP server is that copy. ADR 066.
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { apiClient, expectStatus } from "../../../testing/api-client.ts";
import { createOk, s, startBooksServer } from "../../../testing/books.ts";
import { readMail } from "../../../testing/mail-message.ts";
import { addReaders, draftOn, sendOn } from "../../../testing/newsletters.ts";
import { testEnv } from "../../../testing/test-server.ts";
import { createAuthor } from "../../../testing/users.ts";
import { clickKeyFrom } from "./newsletter-clicks.service.ts";
import { makeCopyDirect, makeNewsletterCopy } from "./newsletters.service.ts";

startBooksServer();

it("is the copy made from scratch, for every reader, and what the SMTP server got", async () => {
  // As the server makes its copies: its sites live under localhost at its port.
  const env = testEnv({});
  const site = { protocol: "http:", sitesDomain: `localhost:${s.port}` };
  const keys = { unsubscribe: s.unsubscribeKey, click: clickKeyFrom(s.unsubscribeKey) };
  const a = await createAuthor(s);
  const book = await createOk(a, { title: "The Lighthouse Keeper", subtitle: "A novel & more" });
  const settings = { archiveEnabled: false, postalAddress: "PO Box 12\nHarbour Town" };
  await expectStatus(apiClient(s, a).newsletter.settings.$put({ json: settings }), 200);
  const readers = await addReaders(s, a, 3);
  const [gone] = await addReaders(s, a, 1);
  const link = "https://example.com/a?x=1&amp;y=2";
  const { id } = await draftOn(s, a, {
    subject: `News <from> "the" desk ${Math.random()}`,
    content:
      `<p>Read <a href="${link}">this</a>, <a href="https://example.org/">https://example.org/</a> and ` +
      `<a href="${link}">this again</a>; <a href="mailto:jane@example.com">mail me</a>.</p>` +
      `<div data-book-card="${book.id}"></div><p>Love, J. — <em>café</em></p>`,
    countClicks: true,
  });
  expect((await sendOn(s, a, id)).status).toBe(200);
  await s.mailer.idle();

  const fromTemplate = makeNewsletterCopy(s.database.db, site, env.mailFrom, s.unsubscribeKey);
  const subscriberIds = new Map(
    (
      await s.database.db
        .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email })
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.userId, a.id))
    ).map((r) => [r.email, r.id] as const),
  );
  for (const email of readers) {
    const row = { newsletterId: id, subscriberId: subscriberIds.get(email) ?? "" };
    const direct = await makeCopyDirect(s.database.db, site, env.mailFrom, keys, row);
    expect(direct?.to).toBe(email);
    expect(await fromTemplate(row)).toStrictEqual(direct);
    // Each reader's own links: three counted ones (two addresses), the mailto as written.
    expect(direct?.html).toContain("/go/");
    expect(direct?.html).toContain("mailto:jane@example.com");
    expect(direct?.html).toContain("The Lighthouse Keeper");
    expect(direct?.text).toContain("Harbour Town");
    // What the SMTP server received is that copy.
    const raw = s.smtp.mails.findLast((m) => m.to.includes(email))?.raw ?? "";
    const mail = readMail(raw);
    expect(mail.part("text/html")?.body).toBe(direct?.html);
    expect(mail.part("text/plain")?.body).toBe(direct?.text);
  }
  // Two readers' copies differ only in their own parts.
  const one = await fromTemplate({ newsletterId: id, subscriberId: subscriberIds.get(readers[0] ?? "") ?? "" });
  const two = await fromTemplate({ newsletterId: id, subscriberId: subscriberIds.get(readers[1] ?? "") ?? "" });
  if (!one || !two) throw new Error("no copy");
  expect(one.html).not.toBe(two.html);
  const tokens = /token=[^"\s]+|\/go\/[^"\s]+/g;
  expect((one.html ?? "").replace(tokens, "")).toBe((two.html ?? "").replace(tokens, ""));
  expect(one.text.replace(tokens, "")).toBe(two.text.replace(tokens, ""));

  // A reader who left meanwhile gets nothing, either way (the template is still in use).
  await s.database.db
    .update(newsletterSubscribers)
    .set({ status: "unsubscribed" })
    .where(eq(newsletterSubscribers.email, gone ?? ""));
  const left = { newsletterId: id, subscriberId: subscriberIds.get(gone ?? "") ?? "" };
  expect(await makeCopyDirect(s.database.db, site, env.mailFrom, keys, left)).toBeNull();
  expect(await fromTemplate(left)).toBeNull();
});
