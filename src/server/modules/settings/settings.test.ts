// Site Settings through the API, and what a reader then sees on the author's site: the look and
// pages, the contact settings, and the getting-started checklist's hide. The newsletter, legal,
// home and blog pages' settings are in settings-pages.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Caller, type Client, callApi, type JsonBody, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, createSignedInUser, TEST_PASSWORD, type TestAuthor } from "../../../testing/users.ts";

startFileServer();

type Site = Client["site"];
const getSettings = (a: Caller) => readJson(apiClient(s, a).site.settings.$get());
const patchSettings = (a: Caller, json: JsonBody<Site["settings"]["$patch"]>) =>
  readJson(apiClient(s, a).site.settings.$patch({ json }));

describe("site settings", () => {
  it("needs a session, and a website", async () => {
    expect((await getSettings({ cookie: "" })).status).toBe(401);
    const noSite = await createSignedInUser(s);
    const res = await getSettings(noSite);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("Set up your website first");
    expect((await patchSettings(noSite, { booksEnabled: false })).status).toBe(404);
  });

  it("starts from the spec's defaults", async () => {
    const a = await createAuthor(s);
    const res = await getSettings(a);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      websiteName: `${a.name}'s Books`,
      booksEnabled: true,
      newsEnabled: true,
      fontFamily: "merriweather",
      logoIcon: "BookOpen",
      headerSize: 1.5,
      accentColor: "#6366f1",
      buttonColor: "#2563eb",
      headerBackgroundColor: "#ffffff",
      footerBackgroundColor: "#1f2937",
    });
  });

  it("saves the look and the pages, and readers see it at once (cached pages dropped)", async () => {
    const a = await createAuthor(s);
    // A post, so that the Blog is in the menu (an empty one is not, ADR 052).
    expect(
      (await readJson(apiClient(s, a).posts.$post({ json: { title: "News", content: "<p>News</p>" } }))).status,
    ).toBe(201);
    const before = await s.onHost(`${a.subdomain}.localhost`, "/");
    expect(before.body).toContain(">Blog<");
    expect((await s.onHost(`${a.subdomain}.localhost`, "/blog")).status).toBe(200);

    const res = await patchSettings(a, {
      websiteName: "  The Harbour Shelf ",
      fontFamily: "playfair-display",
      accentColor: "#FF0000",
      headerSize: 2.04,
      newsEnabled: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      websiteName: "The Harbour Shelf",
      fontFamily: "playfair-display",
      accentColor: "#ff0000",
      headerSize: 2,
      newsEnabled: false,
      booksEnabled: true,
    });
    expect((await getSettings(a)).body).toEqual(res.body);

    const after = await s.onHost(`${a.subdomain}.localhost`, "/");
    expect(after.body).toContain("--accent:#ff0000");
    expect(after.body).toContain("/_fonts/playfair-display-700.woff2");
    expect(after.body).not.toContain(">Blog<");
    expect((await s.onHost(`${a.subdomain}.localhost`, "/blog")).status).toBe(404);
  });

  const bad: [string, unknown, string, string | undefined][] = [
    ["a colour that is not one", { accentColor: "red" }, "Accent colour must be a colour like #6366f1", "accentColor"],
    [
      "a script as a colour",
      { buttonColor: "#fff;}</style><script>" },
      "Button colour must be a colour like #6366f1",
      "buttonColor",
    ],
    ["an unknown font", { fontFamily: "comic-sans" }, "Font must be one of", "fontFamily"],
    ["an unknown icon", { logoIcon: "Skull" }, "Header icon must be one of", "logoIcon"],
    ["a header size too big", { headerSize: 5 }, "Header size must be at most 3", "headerSize"],
    ["a header size as text", { headerSize: "2" }, "Header size must be a number", "headerSize"],
    ["a blank name", { websiteName: "   " }, "Website name is required", "websiteName"],
    ["a toggle as text", { booksEnabled: "no" }, "Books page must be on or off", "booksEnabled"],
    ["someone else's id", { userId: "someone-else", booksEnabled: false }, "Unknown field: userId", "userId"],
    ["nothing", {}, "Nothing to update", undefined],
    ["malformed JSON", "{", "Request body is not valid JSON", undefined],
  ];
  let author: TestAuthor;
  beforeAll(async () => {
    author = await createAuthor(s);
  });
  for (const [label, body, message, field] of bad) {
    it(`refuses ${label} with a clear message and changes nothing`, async () => {
      const before = (await getSettings(author)).body;
      // Wrong shapes, unknown fields and malformed JSON among them on purpose, which the typed client refuses to send.
      const res = await callApi(s, author, "PATCH", "/api/site/settings", body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
      if (field) expect(res.body.error.field).toBe(field);
      expect((await getSettings(author)).body).toEqual(before);
    });
  }

  it("changes only the signed-in author's site", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    expect((await patchSettings(b, { contactEnabled: false, accentColor: "#123456" })).status).toBe(200);
    expect((await getSettings(a)).body).toMatchObject({ contactEnabled: true, accentColor: "#6366f1" });
    expect((await s.onHost(`${a.subdomain}.localhost`, "/contact")).status).toBe(200);
    expect((await s.onHost(`${b.subdomain}.localhost`, "/contact")).status).toBe(404);
  });
});

describe("contact settings", () => {
  const getContact = (a: Caller) => readJson(apiClient(s, a).site.contact.$get());
  const putContact = (a: Caller, json: JsonBody<Site["contact"]["$put"]>) =>
    readJson(apiClient(s, a).site.contact.$put({ json }));
  const valid: JsonBody<Site["contact"]["$put"]> = {
    contactEmail: "Jane@Example.com",
    enableContactForm: true,
    antispamEnabled: true,
    socialLinks: [
      { platform: "instagram", url: "https://instagram.com/jane", enabled: true },
      { platform: "youtube", url: "", enabled: false },
      { platform: "email", url: "jane@example.com", enabled: true },
    ],
  };

  it("starts with the form and anti-spam on and no links, and needs a website", async () => {
    const a = await createAuthor(s);
    expect((await getContact(a)).body).toEqual({
      contactEmail: null,
      enableContactForm: true,
      antispamEnabled: true,
      socialLinks: [],
      contactEmailState: "account",
      accountEmail: a.email,
    });
    expect((await getContact({ cookie: "" })).status).toBe(401);
    expect((await putContact(await createSignedInUser(s), valid)).status).toBe(404);
  });

  it("saves, and the contact page shows the enabled web links and masks the address", async () => {
    const a = await createAuthor(s);
    await s.onHost(`${a.subdomain}.localhost`, "/contact");
    const res = await putContact(a, valid);
    expect(res.status).toBe(200);
    expect(res.body.contactEmail).toBe("jane@example.com");
    const page = await s.onHost(`${a.subdomain}.localhost`, "/contact");
    expect(page.body).toContain('href="https://instagram.com/jane"');
    expect(page.body).not.toContain("youtube.com");
    expect(page.body).toContain("j***e@example.com");

    expect((await putContact(a, { ...valid, enableContactForm: false })).status).toBe(200);
    expect((await s.onHost(`${a.subdomain}.localhost`, "/contact")).body).not.toContain('name="message"');
  });

  const bad: [string, unknown, string, string][] = [
    [
      "a bad address",
      { ...valid, contactEmail: "not-an-address" },
      "Please enter a valid email address",
      "contactEmail",
    ],
    [
      "a link that is not a web address",
      { ...valid, socialLinks: [{ platform: "facebook", url: "javascript:alert(1)", enabled: true }] },
      "Please enter a full link for Facebook, starting with https://",
      "socialLinks.0.url",
    ],
    [
      "an unknown platform",
      { ...valid, socialLinks: [{ platform: "myspace", url: "https://myspace.com/x", enabled: true }] },
      "Platform must be one of",
      "socialLinks.0.platform",
    ],
    [
      "the same platform twice",
      {
        ...valid,
        socialLinks: [
          { platform: "bluesky", url: "https://bsky.app/a", enabled: true },
          { platform: "bluesky", url: "https://bsky.app/b", enabled: true },
        ],
      },
      "Each platform can be listed once",
      "socialLinks",
    ],
    ["a missing toggle", { ...valid, antispamEnabled: undefined }, "antispamEnabled is required", "antispamEnabled"],
  ];
  for (const [label, body, message, field] of bad) {
    it(`refuses ${label} and changes nothing`, async () => {
      const a = await createAuthor(s);
      await putContact(a, valid);
      const before = (await getContact(a)).body;
      // Wrong shapes among them on purpose, which the typed client refuses to send.
      const res = await callApi(s, a, "PUT", "/api/site/contact", body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
      expect(res.body.error.field).toBe(field);
      expect((await getContact(a)).body).toEqual(before);
    });
  }

  it("changes only the signed-in author's settings", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await putContact(a, valid);
    expect((await putContact(b, { ...valid, contactEmail: "b@example.com", socialLinks: [] })).status).toBe(200);
    expect((await getContact(a)).body.contactEmail).toBe("jane@example.com");
    expect((await getContact(a)).body.socialLinks).toHaveLength(3);
  });
});

describe("the getting-started checklist's hide", () => {
  const getStatus = (a: Caller) => readJson(apiClient(s, a).site.status.$get());
  const patchStatus = (a: Caller, json: JsonBody<Site["status"]["$patch"]>) =>
    readJson(apiClient(s, a).site.status.$patch({ json }));

  /** The same author signed in again: another browser, another device. */
  async function signInAgain(a: TestAuthor) {
    const res = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: a.email, password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).not.toBe(a.cookie);
    return { cookie };
  }

  it("needs a session and a website", async () => {
    expect((await patchStatus({ cookie: "" }, { checklistHidden: true })).status).toBe(401);
    const noSite = await createSignedInUser(s);
    const res = await patchStatus(noSite, { checklistHidden: true });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("Set up your website first");
  });

  it("is kept on the server: hidden on one device is hidden on another, and can be shown again", async () => {
    const a = await createAuthor(s);
    expect((await getStatus(a)).body.checklistHidden).toBe(false);
    const hidden = await patchStatus(a, { checklistHidden: true });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ checklistHidden: true, visibility: expect.any(String) });
    const elsewhere = await signInAgain(a);
    expect((await getStatus(elsewhere)).body.checklistHidden).toBe(true);
    expect((await patchStatus(elsewhere, { checklistHidden: false })).body.checklistHidden).toBe(false);
    expect((await getStatus(a)).body.checklistHidden).toBe(false);
  });

  it("refuses bad input with a message that names the field, and changes nothing", async () => {
    const a = await createAuthor(s);
    for (const [body, message, field] of [
      [{ checklistHidden: "yes" }, "Checklist hidden must be true or false", "checklistHidden"],
      [{}, "checklistHidden is required", "checklistHidden"],
      [{ checklistHidden: true, userId: "other" }, "Unknown field: userId", "userId"],
    ] as const) {
      // Wrong shapes and an unknown field on purpose, which the typed client refuses to send.
      const res = await callApi(s, a, "PATCH", "/api/site/status", body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toContain(message);
      expect(res.body.error.field).toBe(field);
    }
    expect((await getStatus(a)).body.checklistHidden).toBe(false);
  });

  it("is each author's own: another author's change leaves it as it was", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    expect((await patchStatus(a, { checklistHidden: true })).status).toBe(200);
    expect((await getStatus(b)).body.checklistHidden).toBe(false);
    expect((await patchStatus(b, { checklistHidden: true })).status).toBe(200);
    expect((await patchStatus(b, { checklistHidden: false })).status).toBe(200);
    // Naming the other author is refused, not obeyed.
    // An unknown field on purpose, which the typed client refuses to send.
    const withUserId = { checklistHidden: false, userId: a.id };
    expect((await callApi(s, b, "PATCH", "/api/site/status", withUserId)).status).toBe(400);
    expect((await getStatus(a)).body.checklistHidden).toBe(true);
    expect((await getStatus(b)).body.checklistHidden).toBe(false);
  });
});
