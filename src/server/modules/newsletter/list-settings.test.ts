// The author's postal address (ADR 071): saved tidied, refused with a clear message and nothing
// changed when too long, too many lines or with control characters; shown under newsletters and
// release alerts (HTML and text) when given, and nowhere when not; each author sees only their own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiClient,
  type Client,
  callApi,
  expectStatus,
  type Json,
  type JsonBody,
  readJson,
} from "../../../testing/api-client.ts";
import { draftOn } from "../../../testing/newsletters.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const ADDRESS = "Jane Author\nPO Box 12\nHarbour Town HT1 2AB";
type Settings = JsonBody<Client["newsletter"]["settings"]["$put"]>;
const put = (a: TestAuthor, json: Settings) => readJson(apiClient(s, a).newsletter.settings.$put({ json }));
const get = async (a: TestAuthor) => (await readJson(apiClient(s, a).newsletter.settings.$get())).body;

describe("postal address setting", () => {
  it("is saved with its lines tidied; empty means none; another author's stays their own", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const saved = await put(a, {
      archiveEnabled: false,
      postalAddress: "  Jane Author \r\n\r\nPO Box 12\n Harbour Town HT1 2AB  ",
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ archiveEnabled: false, postalAddress: ADDRESS });
    expect(await get(b)).toEqual({ archiveEnabled: false, postalAddress: null });
    await put(b, { archiveEnabled: true, postalAddress: "Elsewhere 1" });
    expect(await get(a)).toEqual({ archiveEnabled: false, postalAddress: ADDRESS });
    expect((await put(a, { archiveEnabled: false, postalAddress: "   " })).body.postalAddress).toBeNull();
  });

  it("refuses bad input with the field's message and changes nothing", async () => {
    const a = await createAuthor(s);
    await put(a, { archiveEnabled: true, postalAddress: ADDRESS });
    const cases: [Settings, string][] = [
      [{ archiveEnabled: true, postalAddress: "x".repeat(301) }, "Postal address must be at most 300 characters"],
      [{ archiveEnabled: true, postalAddress: "1\n2\n3\n4\n5\n6\n7" }, "Postal address can have at most 6 lines"],
      [
        { archiveEnabled: true, postalAddress: "PO Box\u0007 12" },
        "Postal address contains characters that are not allowed",
      ],
    ];
    const refused = async (body: unknown, answer: Promise<{ status: number; body: Json }>, message: string) => {
      const res = await answer;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    };
    for (const [body, message] of cases) await refused(body, put(a, body), message);
    // Wrong types on purpose, which the typed client refuses to send.
    for (const [body, message] of [
      [{ archiveEnabled: true, postalAddress: 12 }, "Postal address must be text"],
      [{ archiveEnabled: "yes", postalAddress: null }, "archiveEnabled must be true or false"],
    ] as const) {
      await refused(body, callApi(s, a, "PUT", "/api/newsletter/settings", body), message);
    }
    expect(await get(a)).toEqual({ archiveEnabled: true, postalAddress: ADDRESS });
  });
});

describe("postal address in mail footers", () => {
  it("is under a newsletter and a release alert, in both parts, when given; absent otherwise", async () => {
    const a = await createAuthor(s);
    const n = await draftOn(s, a, { subject: "Footer check", content: "<p>Hi</p>" });
    const { book } = await expectStatus(
      apiClient(s, a).books.$post({ json: { title: "The Comet Year", author: "J" } }),
      201,
    );
    const sendTest = () => readJson(apiClient(s, a).newsletters[":id"].test.$post({ param: { id: n.id } }));

    expect((await sendTest()).status).toBe(200);
    const without = await s.smtp.waitFor(a.email, "[Test] Footer check");
    expect(without.html).not.toContain("PO Box 12");
    expect(without.text).not.toContain("PO Box 12");

    await put(a, { archiveEnabled: false, postalAddress: `${ADDRESS}\n<b>Unit</b> 5 & 6` });
    expect((await sendTest()).status).toBe(200);
    const releaseTest = apiClient(s, a).books[":id"]["release-alerts"].test.$post({ param: { id: book.id } });
    expect((await readJson(releaseTest)).status).toBe(200);
    await s.mailer.idle();
    const mails = s.smtp.mails.filter((m) => m.to.includes(a.email) && m.text.includes("PO Box 12"));
    expect(mails.map((m) => m.subject).sort()).toEqual(["[Test] Footer check", "[Test] The Comet Year is out now"]);
    for (const m of mails) {
      expect(m.html).toContain(
        "Jane Author<br>\nPO Box 12<br>\nHarbour Town HT1 2AB<br>\n&lt;b&gt;Unit&lt;/b&gt; 5 &amp; 6</p>",
      );
      // The text part: after the signature line, one line each.
      expect(m.text).toMatch(/-- \n[\s\S]*Jane Author\nPO Box 12\nHarbour Town HT1 2AB\n<b>Unit<\/b> 5 & 6\n$/);
    }
  });
});
