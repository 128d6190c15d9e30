// Site Settings through the API, and what a reader then sees on the author's site: the look and
// pages, the contact settings, and the getting-started checklist's hide. The newsletter, legal,
// home and blog pages' settings are in settings-pages.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, callApi, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, createSignedInUser, TEST_PASSWORD, type TestAuthor } from "../../../testing/users.ts";

startFileServer();

const settings = (a: { cookie: string }, method: string, body?: unknown) =>
  callApi(s, a, method, "/api/site/settings", body);

describe("site settings", () => {
  it("needs a session, and a website", async () => {
    expect((await settings({ cookie: "" }, "GET")).status).toBe(401);
    const noSite = await createSignedInUser(s);
    const res = await settings(noSite, "GET");
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("Set up your website first");
    expect((await settings(noSite, "PATCH", { booksEnabled: false })).status).toBe(404);
  });

  it("starts from the spec's defaults", async () => {
    const a = await createAuthor(s);
    const res = await settings(a, "GET");
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

    const res = await settings(a, "PATCH", {
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
    expect((await settings(a, "GET")).body).toEqual(res.body);

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
      const before = (await settings(author, "GET")).body;
      const res = await settings(author, "PATCH", body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
      if (field) expect(res.body.error.field).toBe(field);
      expect((await settings(author, "GET")).body).toEqual(before);
    });
  }

  it("changes only the signed-in author's site", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    expect((await settings(b, "PATCH", { contactEnabled: false, accentColor: "#123456" })).status).toBe(200);
    expect((await settings(a, "GET")).body).toMatchObject({ contactEnabled: true, accentColor: "#6366f1" });
    expect((await s.onHost(`${a.subdomain}.localhost`, "/contact")).status).toBe(200);
    expect((await s.onHost(`${b.subdomain}.localhost`, "/contact")).status).toBe(404);
  });
});

describe("contact settings", () => {
  const contact = (a: { cookie: string }, method: string, body?: unknown) =>
    callApi(s, a, method, "/api/site/contact", body);
  const valid = {
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
    expect((await contact(a, "GET")).body).toEqual({
      contactEmail: null,
      enableContactForm: true,
      antispamEnabled: true,
      socialLinks: [],
      contactEmailState: "account",
      accountEmail: a.email,
    });
    expect((await contact({ cookie: "" }, "GET")).status).toBe(401);
    expect((await contact(await createSignedInUser(s), "PUT", valid)).status).toBe(404);
  });

  it("saves, and the contact page shows the enabled web links and masks the address", async () => {
    const a = await createAuthor(s);
    await s.onHost(`${a.subdomain}.localhost`, "/contact");
    const res = await contact(a, "PUT", valid);
    expect(res.status).toBe(200);
    expect(res.body.contactEmail).toBe("jane@example.com");
    const page = await s.onHost(`${a.subdomain}.localhost`, "/contact");
    expect(page.body).toContain('href="https://instagram.com/jane"');
    expect(page.body).not.toContain("youtube.com");
    expect(page.body).toContain("j***e@example.com");

    expect((await contact(a, "PUT", { ...valid, enableContactForm: false })).status).toBe(200);
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
      await contact(a, "PUT", valid);
      const before = (await contact(a, "GET")).body;
      const res = await contact(a, "PUT", body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
      expect(res.body.error.field).toBe(field);
      expect((await contact(a, "GET")).body).toEqual(before);
    });
  }

  it("changes only the signed-in author's settings", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await contact(a, "PUT", valid);
    expect((await contact(b, "PUT", { ...valid, contactEmail: "b@example.com", socialLinks: [] })).status).toBe(200);
    expect((await contact(a, "GET")).body.contactEmail).toBe("jane@example.com");
    expect((await contact(a, "GET")).body.socialLinks).toHaveLength(3);
  });
});

describe("the getting-started checklist's hide", () => {
  const status = (a: { cookie: string }, method: string, body?: unknown) =>
    callApi(s, a, method, "/api/site/status", body);

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
    expect((await status({ cookie: "" }, "PATCH", { checklistHidden: true })).status).toBe(401);
    const noSite = await createSignedInUser(s);
    const res = await status(noSite, "PATCH", { checklistHidden: true });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("Set up your website first");
  });

  it("is kept on the server: hidden on one device is hidden on another, and can be shown again", async () => {
    const a = await createAuthor(s);
    expect((await status(a, "GET")).body.checklistHidden).toBe(false);
    const hidden = await status(a, "PATCH", { checklistHidden: true });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ checklistHidden: true, visibility: expect.any(String) });
    const elsewhere = await signInAgain(a);
    expect((await status(elsewhere, "GET")).body.checklistHidden).toBe(true);
    expect((await status(elsewhere, "PATCH", { checklistHidden: false })).body.checklistHidden).toBe(false);
    expect((await status(a, "GET")).body.checklistHidden).toBe(false);
  });

  it("refuses bad input with a message that names the field, and changes nothing", async () => {
    const a = await createAuthor(s);
    for (const [body, message, field] of [
      [{ checklistHidden: "yes" }, "Checklist hidden must be true or false", "checklistHidden"],
      [{}, "checklistHidden is required", "checklistHidden"],
      [{ checklistHidden: true, userId: "other" }, "Unknown field: userId", "userId"],
    ] as const) {
      const res = await status(a, "PATCH", body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toContain(message);
      expect(res.body.error.field).toBe(field);
    }
    expect((await status(a, "GET")).body.checklistHidden).toBe(false);
  });

  it("is each author's own: another author's change leaves it as it was", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    expect((await status(a, "PATCH", { checklistHidden: true })).status).toBe(200);
    expect((await status(b, "GET")).body.checklistHidden).toBe(false);
    expect((await status(b, "PATCH", { checklistHidden: true })).status).toBe(200);
    expect((await status(b, "PATCH", { checklistHidden: false })).status).toBe(200);
    // Naming the other author is refused, not obeyed.
    expect((await status(b, "PATCH", { checklistHidden: false, userId: a.id })).status).toBe(400);
    expect((await status(a, "GET")).body.checklistHidden).toBe(true);
    expect((await status(b, "GET")).body.checklistHidden).toBe(false);
  });
});
