// The reader magnet (ADR 068) through real requests: the author's file judged by its content, with
// a clear message and nothing changed when it is refused; no author reads, replaces, removes or
// downloads another's; a reader who confirms gets a working link on the page and in a welcome mail
// (with List-Unsubscribe); the link expires, is limited per reader, and does nothing on another site.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAGNET_DOWNLOADS_PER_READER, MAGNET_MAX_BYTES, MAGNET_MESSAGES } from "../../../shared/schemas/magnet.ts";
import { apiClient, type Caller, readJson } from "../../../testing/api-client.ts";
import { filesUnder } from "../../../testing/files.ts";
import { buttonToken, epub, magnetState, PDF, PNG, signUpAndConfirm, uploadMagnet } from "../../../testing/magnet.ts";
import { readMail } from "../../../testing/mail-message.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { magnetToken } from "./magnet-link.ts";

let s: TestServer;
let a: TestAuthor;
let b: TestAuthor;
const host = (x: TestAuthor) => `${x.subdomain}.localhost`;
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-magnet-"));
const magnetFiles = () => {
  const dir = join(dataDir, "uploads");
  return existsSync(dir) ? filesUnder(dir).filter((f) => f.startsWith("magnets/")) : [];
};
const download = (x: TestAuthor, token: string) => s.postOnHost(host(x), "/newsletter/free-book", { token });
const magnet = (who: Caller) => apiClient(s, who).newsletter.magnet;

beforeAll(async () => {
  s = await startTestServer({ DATA_DIR: dataDir });
  [a, b] = await Promise.all([createAuthor(s, { name: "Ada Lighthouse" }), createAuthor(s)]);
  // Both show the site's own sign-up form (ADR 052).
  for (const x of [a, b]) {
    expect(
      (await readJson(apiClient(s, x).site.settings.$patch({ json: { showWhenEmpty: ["newsletter"] } }))).status,
    ).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the author's file", () => {
  it("refuses what is not an EPUB or a PDF by its content, with a message, and changes nothing", async () => {
    const refused = [
      [PNG, "cover.pdf", MAGNET_MESSAGES.notABook],
      [epub("application/zip"), "book.epub", MAGNET_MESSAGES.notABook],
      [epub("application/epub+zip", "META-INF/container.xml"), "book.epub", MAGNET_MESSAGES.notABook],
      [Buffer.from("just text, called a pdf"), "x.pdf", MAGNET_MESSAGES.notABook],
      [Buffer.alloc(0), "empty.pdf", MAGNET_MESSAGES.empty],
    ] as const;
    for (const [bytes, name, message] of refused) {
      const res = await uploadMagnet(s, a, bytes, name);
      expect(res.status, name).toBe(400);
      expect(res.body.error).toMatchObject({ message, field: "file" });
    }
    expect((await magnetState(s, a)).body.magnet).toBeNull();
    expect(magnetFiles()).toEqual([]);
  });

  it("refuses a file over the limit with the limit in the message", async () => {
    const res = await uploadMagnet(s, a, Buffer.concat([PDF, Buffer.alloc(MAGNET_MAX_BYTES)]));
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(MAGNET_MESSAGES.tooLarge);
    expect(res.body.error.message).toContain("20 MB");
    expect((await magnetState(s, a)).body.magnet).toBeNull();
  });

  it("takes an EPUB, then a PDF in its place, keeping the title the author set", async () => {
    const first = await uploadMagnet(s, a, epub(), "the-lighthouse.epub");
    expect(first.status).toBe(200);
    expect(first.body.magnet).toMatchObject({ type: "application/epub+zip", fileName: "the-lighthouse.epub" });
    const titled = await readJson(magnet(a).$patch({ json: { title: "The Lighthouse Prequel" } }));
    expect(titled.status).toBe(200);
    const second = await uploadMagnet(s, a, PDF, "C:\\books\\Prequel <final>.PDF");
    expect(second.body.magnet).toMatchObject({
      title: "The Lighthouse Prequel",
      type: "application/pdf",
      fileName: "Prequel final.pdf",
      size: PDF.length,
    });
    // The replaced file is gone after the grace minute; one is stored now or soon.
    expect(magnetFiles().length).toBeGreaterThanOrEqual(1);
  });

  it("refuses an empty title with a message and keeps the one saved", async () => {
    const res = await readJson(magnet(a).$patch({ json: { title: "  " } }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(MAGNET_MESSAGES.titleRequired);
    expect((await magnetState(s, a)).body.magnet.title).toBe("The Lighthouse Prequel");
  });

  it("is never served at /uploads", async () => {
    const [key] = magnetFiles();
    expect(key).toBeDefined();
    expect((await s.api(`/uploads/${key}`)).status).toBe(404);
  });

  it("is the offer on the site's sign-up form", async () => {
    const page = await s.onHost(host(a), "/newsletter");
    expect(page.body).toContain("Get <i>The Lighthouse Prequel</i> free");
    expect((await s.onHost(host(b), "/newsletter")).body).not.toContain("free</strong>");
  });
});

describe("another author", () => {
  it("can neither read, retitle, replace nor remove it", async () => {
    expect((await magnetState(s, b)).body.magnet).toBeNull();
    expect((await readJson(magnet(b).$patch({ json: { title: "Mine now" } }))).status).toBe(404);
    expect((await readJson(magnet(b).$delete())).status).toBe(404);
    expect((await uploadMagnet(s, b, epub(), "b.epub")).status).toBe(200);
    const mine = (await magnetState(s, a)).body.magnet;
    expect(mine).toMatchObject({ title: "The Lighthouse Prequel", type: "application/pdf" });
    expect((await readJson(magnet(b).$delete())).status).toBe(204);
    expect((await magnetState(s, a)).body.magnet).toMatchObject({ title: "The Lighthouse Prequel" });
  });

  it("needs a session", async () => {
    expect((await s.api("/api/newsletter/magnet")).status).toBe(401);
  });
});

describe("a reader who confirms", () => {
  let token = "";
  let confirmToken = "";

  it("gets the download button on the confirmation page", async () => {
    const confirmed = await signUpAndConfirm(s, host(a), "reader@example.com");
    const page = confirmed.page;
    confirmToken = confirmed.confirmToken;
    expect(page.status).toBe(200);
    expect(page.body).toContain("Subscription confirmed");
    token = buttonToken(page.body) ?? "";
    expect(token).not.toBe("");
  });

  it("gets one welcome mail with the link, in the form of reader mail with List-Unsubscribe", async () => {
    const mail = await s.smtp.waitFor("reader@example.com", "Your free book: The Lighthouse Prequel");
    const read = readMail(mail.raw);
    expect(read.type).toBe("multipart/alternative");
    expect(read.header("list-unsubscribe")).toMatch(/^<http:\/\/[^>]+\/unsubscribe\?token=n\.[^>]+>$/);
    expect(read.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const link = /http:\/\/\S+\/newsletter\/free-book\?token=\S+/.exec(mail.text)?.[0] ?? "";
    expect(mail.html).toContain("/newsletter/free-book?token=");
    const url = new URL(link);
    const page = await s.onHost(host(a), `${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("The Lighthouse Prequel");
    // Confirming again shows the button but mails nothing more.
    const again = await s.postOnHost(host(a), "/newsletter/confirm", { token: confirmToken });
    expect(buttonToken(again.body)).not.toBeNull();
    await s.mailer.idle();
    expect(s.smtp.mails.filter((m) => m.to.includes("reader@example.com") && /free book/.test(m.subject))).toHaveLength(
      1,
    );
  });

  it("downloads the file with its type, its name and no caching", async () => {
    const res = await download(a, token);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="Prequel final.pdf"; filename*=UTF-8''Prequel%20final.pdf`,
    );
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.body).toBe(PDF.toString("latin1"));
  });

  it("gives nothing on another site, from that site's file or any other", async () => {
    await uploadMagnet(s, b, epub(), "b-book.epub");
    const there = await download(b, token);
    expect(there.status).toBe(404);
    expect(there.body).toContain("Link not valid");
    expect((await s.onHost(host(b), `/newsletter/free-book?token=${token}`)).status).toBe(404);
  });

  it(`stops after ${MAGNET_DOWNLOADS_PER_READER} downloads and counts them per day for the author`, async () => {
    for (let i = 1; i < MAGNET_DOWNLOADS_PER_READER; i++) expect((await download(a, token)).status).toBe(200);
    const over = await download(a, token);
    expect(over.status).toBe(403);
    expect(over.body).toContain("Download limit reached");
    const state = (await magnetState(s, a)).body;
    expect(state.downloads).toHaveLength(30);
    expect(state.downloads.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), count: 5 });
    expect(state.total).toBe(5);
    expect((await magnetState(s, b)).body.total).toBe(0);
  });

  it("expires: an old link's page and download say so", async () => {
    const subscriberId = token.split(".")[0] ?? "";
    const old = magnetToken(s.unsubscribeKey, a.id, subscriberId, new Date(Date.now() - 8 * 24 * 3600_000));
    expect((await download(a, old)).status).toBe(410);
    const page = await s.onHost(host(a), `/newsletter/free-book?token=${old}`);
    expect(page.status).toBe(410);
    expect(page.body).toContain("expired");
    // A forged one (same reader, later expiry, old signature) is not valid.
    const [, , mac] = old.split(".");
    expect((await download(a, `${subscriberId}.9999999999.${mac}`)).status).toBe(404);
  });

  it("an expired link's page offers a new link, mailed only to its still-subscribed reader on that site", async () => {
    const subscriberId = token.split(".")[0] ?? "";
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    const old = magnetToken(s.unsubscribeKey, a.id, subscriberId, weekAgo);
    const page = await s.onHost(host(a), `/newsletter/free-book?token=${old}`);
    expect(page.body).toContain("Send me a new link");
    expect(page.body).toContain(`<input type="hidden" name="token" value="${old}"/>`);
    // A link that is not signed for this site has no such button.
    expect((await s.onHost(host(a), "/newsletter/free-book?token=nope")).body).not.toContain("Send me a new link");

    const renewals = (to: string) =>
      s.smtp.mails.filter(
        (m) => m.to.includes(to) && m.subject === "A new link for your free book: The Lighthouse Prequel",
      );
    const ask = async (on: TestAuthor, t: string) => {
      const res = await s.postOnHost(host(on), "/newsletter/free-book", { token: t, renew: "1" });
      await s.mailer.idle();
      return res;
    };
    const SAME = "If this link is yours and you are still subscribed, a new link is on its way";

    const asked = await ask(a, old);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain(SAME);
    expect(renewals("reader@example.com")).toHaveLength(1);
    const mail = renewals("reader@example.com")[0];
    expect(readMail(mail?.raw ?? "").header("list-unsubscribe")).toMatch(/unsubscribe\?token=n\./);
    const fresh = new URL(/http:\/\/\S+\/newsletter\/free-book\?token=\S+/.exec(mail?.text ?? "")?.[0] ?? "");
    const opened = await s.onHost(host(a), `${fresh.pathname}${fresh.search}`);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain("Download <i>The Lighthouse Prequel</i>");

    // Forged, still good, a reader who left, nonsense: the same words, and no mail to anyone.
    const [, , mac] = old.split(".");
    const { page: leaverPage } = await signUpAndConfirm(s, host(a), "leaver@example.com");
    const leaver = (buttonToken(leaverPage.body) ?? "").split(".")[0] ?? "";
    await s.postOnHost(host(a), "/unsubscribe", {
      token:
        new URL(
          /<(.+)>/.exec(
            readMail((await s.smtp.waitFor("leaver@example.com", "Your free book")).raw).header("list-unsubscribe"),
          )?.[1] ?? "",
        ).searchParams.get("token") ?? "",
    });
    const before = s.smtp.mails.length;
    for (const t of [
      `${subscriberId}.9999999999.${mac}`,
      magnetToken(s.unsubscribeKey, a.id, subscriberId),
      magnetToken(s.unsubscribeKey, a.id, leaver, weekAgo),
      // Signed for another author's site: nothing here.
      magnetToken(s.unsubscribeKey, b.id, subscriberId, weekAgo),
    ]) {
      const res = await ask(a, t);
      expect(res.status).toBe(200);
      expect(res.body).toContain(SAME);
    }
    expect(s.smtp.mails.slice(before)).toHaveLength(0);
    // Five asks an hour from one address on one site, whatever they were for.
    const over = await ask(a, old);
    expect(over.status).toBe(429);
    expect(over.body).toContain("Too many requests");
    expect(renewals("reader@example.com")).toHaveLength(1);
  });

  it("mails a reader at most three new links a day, answering the fourth ask the same", async () => {
    const { page } = await signUpAndConfirm(s, host(b), "b-reader@example.com");
    const id = (buttonToken(page.body) ?? "").split(".")[0] ?? "";
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    const old = magnetToken(s.unsubscribeKey, b.id, id, weekAgo);
    const renewals = () =>
      s.smtp.mails.filter((m) => m.to.includes("b-reader@example.com") && /A new link/.test(m.subject));
    for (let i = 0; i < 4; i++) {
      const res = await s.postOnHost(host(b), "/newsletter/free-book", { token: old, renew: "1" });
      expect(res.status).toBe(200);
      expect(res.body).toContain("If this link is yours and you are still subscribed");
      await s.mailer.idle();
    }
    expect(renewals()).toHaveLength(3);
  });

  it("answers that the book was removed once the author removes it", async () => {
    const fresh = magnetToken(s.unsubscribeKey, a.id, token.split(".")[0] ?? "");
    expect((await readJson(magnet(a).$delete())).status).toBe(204);
    const res = await download(a, fresh);
    expect(res.status).toBe(410);
    expect(res.body).toContain("no longer offers");
    expect((await s.onHost(host(a), "/newsletter")).body).not.toContain("The Lighthouse Prequel");
  });

  it("without a free book confirms as before, with no welcome mail", async () => {
    const { page } = await signUpAndConfirm(s, host(a), "later@example.com");
    expect(page.status).toBe(200);
    expect(buttonToken(page.body)).toBeNull();
    expect(page.body).toContain("Thank you for subscribing");
    await s.mailer.idle();
    const mails = s.smtp.mails.filter((m) => m.to.includes("later@example.com"));
    expect(mails.map((m) => m.subject).filter((x) => x.includes("free book"))).toEqual([]);
  });
});
