// Blog posts through the API, and what a reader then sees on the author's public /blog.
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Client, callApi, type Json, type JsonBody, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

startFileServer();

const list = async (a: TestAuthor) => (await readJson(apiClient(s, a).posts.$get())).body.posts as Json[];
const create = async (a: TestAuthor, body: JsonBody<Client["posts"]["$post"]>) =>
  readJson(apiClient(s, a).posts.$post({ json: body }));

describe("blog posts", () => {
  it("need a session", async () => {
    expect((await readJson(apiClient(s).posts.$get())).status).toBe(401);
    expect((await readJson(apiClient(s).posts.$post({ json: { title: "x", content: "<p>x</p>" } }))).status).toBe(401);
  });

  it("are created, listed newest first, read, edited and deleted", async () => {
    const a = await createAuthor(s);
    expect(await list(a)).toEqual([]);

    const first = await create(a, { title: "  First post  ", content: "<p>Hello <strong>world</strong></p>" });
    expect(first.status).toBe(201);
    expect(first.body.post).toMatchObject({
      title: "First post",
      content: "<p>Hello <strong>world</strong></p>",
      category: "news",
    });
    const second = await create(a, { title: "Second", content: "<p>Signing</p>", category: "events" });
    expect(second.status).toBe(201);
    expect((await list(a)).map((p) => p.title)).toEqual(["Second", "First post"]);

    const id = first.body.post.id as string;
    expect((await readJson(apiClient(s, a).posts[":id"].$get({ param: { id } }))).body.post).toEqual(first.body.post);

    const edited = await readJson(
      apiClient(s, a).posts[":id"].$patch({ param: { id }, json: { title: "First, revised", category: "thoughts" } }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.post).toMatchObject({
      id,
      title: "First, revised",
      content: "<p>Hello <strong>world</strong></p>",
      category: "thoughts",
      createdAt: first.body.post.createdAt,
    });

    expect((await readJson(apiClient(s, a).posts[":id"].$delete({ param: { id } }))).status).toBe(204);
    expect((await list(a)).map((p) => p.title)).toEqual(["Second"]);
    const gone = await readJson(apiClient(s, a).posts[":id"].$get({ param: { id } }));
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe("Post not found");
    expect((await readJson(apiClient(s, a).posts[":id"].$delete({ param: { id } }))).status).toBe(404);
  });

  it("clean the HTML before storing it", async () => {
    const a = await createAuthor(s);
    const res = await create(a, {
      title: "Careful",
      content: '<p onclick="x()">Hi<script>alert(1)</script> <a href="javascript:alert(1)">there</a></p>',
    });
    expect(res.status).toBe(201);
    expect(res.body.post.content).toBe("<p>Hi <a>there</a></p>");
    // Only a script: nothing is left to read, which is a blank body.
    const blank = await create(a, { title: "Sneaky", content: "<p><script>alert(1)</script></p>" });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toMatchObject({
      code: "required",
      message: "Please fill in all fields",
      field: "content",
    });
    expect((await list(a)).map((p) => p.title)).toEqual(["Careful"]);
  });

  it("show on the public blog at once, and leave it when deleted (cached pages dropped)", async () => {
    const a = await createAuthor(s);
    // Prime the page cache: with no post, the Blog is not offered to readers (ADR 052).
    const before = await s.onHost(`${a.subdomain}.localhost`, "/blog");
    expect(before.status).toBe(404);
    expect(before.body).not.toContain(">Blog<");

    const res = await create(a, {
      title: "Launch at the Harbour",
      content: "<p>Come <strong>along</strong></p>",
      category: "events",
    });
    expect(res.status).toBe(201);
    const after = await s.onHost(`${a.subdomain}.localhost`, "/blog");
    expect(after.body).toContain("Launch at the Harbour");
    expect(after.body).toContain("<strong>along</strong>");
    expect((await s.onHost(`${a.subdomain}.localhost`, "/blog?category=events")).body).toContain(
      "Launch at the Harbour",
    );
    expect((await s.onHost(`${a.subdomain}.localhost`, "/blog?category=news")).body).not.toContain(
      "Launch at the Harbour",
    );

    const id = res.body.post.id as string;
    expect(
      (await readJson(apiClient(s, a).posts[":id"].$patch({ param: { id }, json: { title: "Launch moved" } }))).status,
    ).toBe(200);
    const edited = await s.onHost(`${a.subdomain}.localhost`, "/blog");
    expect(edited.body).toContain("Launch moved");
    expect(edited.body).not.toContain("Launch at the Harbour");

    expect((await readJson(apiClient(s, a).posts[":id"].$delete({ param: { id } }))).status).toBe(204);
    const deleted = await s.onHost(`${a.subdomain}.localhost`, "/blog");
    expect(deleted.body).not.toContain("Launch moved");
    // The last post gone, the Blog leaves the menu again.
    expect(deleted.status).toBe(404);
  });

  const valid = { title: "A post", content: "<p>Words</p>", category: "books" as const };
  const bad: [string, string, unknown, string, string | undefined][] = [
    ["malformed JSON", "POST", "{", "Request body is not valid JSON", undefined],
    ["someone else's id", "POST", { ...valid, userId: "someone-else" }, "Unknown field: userId", "userId"],
    ["an unknown category", "POST", { ...valid, category: "gossip" }, "Category must be one of", "category"],
    ["a blank title", "POST", { ...valid, title: "   " }, "Please fill in all fields", "title"],
    ["a blank body", "POST", { ...valid, content: "<p> &nbsp;</p>" }, "Please fill in all fields", "content"],
    ["a missing body", "POST", { title: "A post" }, "content is required", "content"],
    ["a title too long", "POST", { ...valid, title: "x".repeat(201) }, "Title must be at most 200", "title"],
    [
      "an oversized body",
      "POST",
      { ...valid, content: `<p>${"x".repeat(100_000)}</p>` },
      "Content must be at most 100,000",
      "content",
    ],
    ["a title that is not text", "POST", { ...valid, title: 42 }, "Title must be text", "title"],
    ["malformed JSON on edit", "PATCH", "{", "Request body is not valid JSON", undefined],
    ["someone else's id on edit", "PATCH", { userId: "x", title: "Hi" }, "Unknown field: userId", "userId"],
    ["a blank title on edit", "PATCH", { title: "" }, "Please fill in all fields", "title"],
    ["an unknown category on edit", "PATCH", { category: "NEWS" }, "Category must be one of", "category"],
    ["an empty edit", "PATCH", {}, "Nothing to update", undefined],
  ];
  let author: TestAuthor;
  let postId: string;
  beforeAll(async () => {
    author = await createAuthor(s);
    postId = (await create(author, valid)).body.post.id;
  });
  for (const [label, method, body, message, field] of bad) {
    it(`refuse ${label} with a clear message and change nothing`, async () => {
      const before = await list(author);
      const path = method === "POST" ? "/api/posts" : `/api/posts/${postId}`;
      // Malformed JSON and wrong shapes on purpose, which the typed client refuses to send.
      const res = await callApi(s, author, method, path, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
      if (field) expect(res.body.error.field).toBe(field);
      expect(await list(author)).toEqual(before);
    });
  }

  it("belong to their author: another author's id is 'Post not found' everywhere and changes nothing", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const mine = (await create(a, { title: "Secret draft", content: "<p>Private words</p>" })).body.post;
    await s.onHost(`${a.subdomain}.localhost`, "/blog");

    const theirs = apiClient(s, b).posts[":id"];
    const param = { id: mine.id };
    for (const [method, send] of [
      ["GET", () => theirs.$get({ param })],
      ["PATCH", () => theirs.$patch({ param, json: { title: "Taken over" } })],
      ["DELETE", () => theirs.$delete({ param })],
    ] as const) {
      const res = await readJson(send());
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "Post not found" } });
      expect(JSON.stringify(res.body)).not.toContain("Secret");
    }
    // A path that is not an id at all answers the same.
    expect((await readJson(apiClient(s, b).posts[":id"].$get({ param: { id: "not-an-id" } }))).body).toEqual({
      error: { code: "not_found", message: "Post not found" },
    });

    expect(await list(b)).toEqual([]);
    expect(await list(a)).toEqual([mine]);
    const page = await s.onHost(`${a.subdomain}.localhost`, "/blog");
    expect(page.body).toContain("Secret draft");
    expect(page.body).not.toContain("Taken over");
    expect((await s.onHost(`${b.subdomain}.localhost`, "/blog")).body).not.toContain("Private words");
  });

  it("created at once with one title, each get a created answer and an address of their own", async () => {
    const a = await createAuthor(s);
    const made = await Promise.all(
      Array.from({ length: 32 }, (_, i) => create(a, { title: "Launch day", content: `<p>Copy ${i}</p>` })),
    );
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    const slugs = made.map((r) => r.body.post.slug as string).sort();
    expect(new Set(slugs).size).toBe(32);
    expect(slugs).toContain("launch-day");
    expect(slugs).toContain("launch-day-32");
    // Renames racing for one new title as well.
    const ids = made.slice(0, 8).map((r) => r.body.post.id as string);
    const renamed = await Promise.all(
      ids.map((id) => readJson(apiClient(s, a).posts[":id"].$patch({ param: { id }, json: { title: "Out now" } }))),
    );
    expect(renamed.map((r) => r.status)).toEqual(renamed.map(() => 200));
    expect(new Set(renamed.map((r) => r.body.post.slug)).size).toBe(8);
  });

  it("each get their own address from the title; a rename moves it and the old address redirects", async () => {
    const a = await createAuthor(s);
    const host = `${a.subdomain}.localhost`;
    const one = (await create(a, { title: "Café & Crème: Part 2!", content: "<p>One</p>" })).body.post;
    expect(one.slug).toBe("cafe-creme-part-2");
    // The same title twice: the second gets the next free address.
    const two = (await create(a, { title: "Cafe creme part 2", content: "<p>Two</p>" })).body.post;
    expect(two.slug).toBe("cafe-creme-part-2-2");
    const symbols = (await create(a, { title: "!!!", content: "<p>Three</p>" })).body.post;
    expect(symbols.slug).toBe("post");

    const page = await s.onHost(host, "/blog/cafe-creme-part-2");
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1 id="post-title">Café &amp; Crème: Part 2!</h1>');
    expect(page.body).toContain("<p>One</p>");
    expect(page.body).toContain(`<link rel="canonical" href="http://${host}:${s.port}/blog/cafe-creme-part-2"/>`);
    expect(page.body).toContain('<meta property="og:type" content="article"/>');
    // The list links each title to its page.
    expect((await s.onHost(host, "/blog")).body).toContain('href="/blog/cafe-creme-part-2-2"');

    const renamed = await readJson(
      apiClient(s, a).posts[":id"].$patch({ param: { id: one.id }, json: { title: "Café at last" } }),
    );
    expect(renamed.body.post.slug).toBe("cafe-at-last");
    const old = await s.onHost(host, "/blog/cafe-creme-part-2");
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe("/blog/cafe-at-last");
    expect((await s.onHost(host, "/blog/cafe-at-last")).body).toContain("Café at last");
    // Its old address stays its own: a new post with that title does not take it.
    const three = (await create(a, { title: "Cafe creme, part 2", content: "<p>Four</p>" })).body.post;
    expect(three.slug).toBe("cafe-creme-part-2-3");
    // Editing only the body, or a title with the same address, keeps the address.
    expect(
      (
        await readJson(
          apiClient(s, a).posts[":id"].$patch({ param: { id: two.id }, json: { title: "Café, crème — part 2" } }),
        )
      ).body.post.slug,
    ).toBe("cafe-creme-part-2-2");
    // Renamed back, the post takes its old address again and nothing redirects in a loop.
    expect(
      (
        await readJson(
          apiClient(s, a).posts[":id"].$patch({ param: { id: one.id }, json: { title: "Café & Crème: Part 2" } }),
        )
      ).body.post.slug,
    ).toBe("cafe-creme-part-2");
    expect((await s.onHost(host, "/blog/cafe-creme-part-2")).status).toBe(200);
    expect((await s.onHost(host, "/blog/cafe-at-last")).headers.location).toBe("/blog/cafe-creme-part-2");

    const missing = await s.onHost(host, "/blog/no-such-post");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain("Post not found");
    expect((await s.onHost(host, "/blog/Not%20A%20Slug")).status).toBe(404);
    // Deleted, its address and the ones that redirected to it are gone.
    expect((await readJson(apiClient(s, a).posts[":id"].$delete({ param: { id: one.id } }))).status).toBe(204);
    expect((await s.onHost(host, "/blog/cafe-creme-part-2")).status).toBe(404);
    expect((await s.onHost(host, "/blog/cafe-at-last")).status).toBe(404);
  });

  it("take the first free address: one a deleted post left, then the next after the last", async () => {
    const a = await createAuthor(s);
    const made = [];
    for (let i = 0; i < 4; i++) made.push((await create(a, { title: "Signing", content: `<p>${i}</p>` })).body.post);
    expect(made.map((p) => p.slug)).toEqual(["signing", "signing-2", "signing-3", "signing-4"]);
    const gone = made[1]?.id as string;
    expect((await readJson(apiClient(s, a).posts[":id"].$delete({ param: { id: gone } }))).status).toBe(204);
    expect((await create(a, { title: "Signing", content: "<p>again</p>" })).body.post.slug).toBe("signing-2");
    expect((await create(a, { title: "Signing", content: "<p>more</p>" })).body.post.slug).toBe("signing-5");
    // Another title that starts the same is an address of its own, not a number of this one.
    expect((await create(a, { title: "Signing 7", content: "<p>x</p>" })).body.post.slug).toBe("signing-7");
    expect((await create(a, { title: "Signing", content: "<p>y</p>" })).body.post.slug).toBe("signing-6");
    expect((await create(a, { title: "Signing", content: "<p>z</p>" })).body.post.slug).toBe("signing-8");
  });

  it("take back the addresses a delete frees, earlier ones included, and otherwise the next after the last", async () => {
    const a = await createAuthor(s);
    const post = async (title: string) => (await create(a, { title, content: "<p>x</p>" })).body.post;
    const remove = async (id: string) =>
      expect((await readJson(apiClient(s, a).posts[":id"].$delete({ param: { id } }))).status).toBe(204);
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await post("Reading"));
    expect(made.map((p) => p.slug)).toEqual([
      "reading",
      "reading-2",
      "reading-3",
      "reading-4",
      "reading-5",
      "reading-6",
    ]);
    await remove(made[4]?.id as string);
    await remove(made[2]?.id as string);
    expect((await post("Reading")).slug).toBe("reading-3");
    expect((await post("Reading")).slug).toBe("reading-5");
    expect((await post("Reading")).slug).toBe("reading-7");
    // A renamed post keeps its old address: not taken while it lives, free again once it is deleted.
    const moved = made[1]?.id as string;
    const renamed = await readJson(
      apiClient(s, a).posts[":id"].$patch({ param: { id: moved }, json: { title: "Reading night" } }),
    );
    expect(renamed.body.post.slug).toBe("reading-night");
    expect((await post("Reading")).slug).toBe("reading-8");
    await remove(moved);
    expect((await post("Reading")).slug).toBe("reading-2");
    expect((await post("Reading night")).slug).toBe("reading-night");
    expect((await post("Reading")).slug).toBe("reading-9");
  });

  it("created and renamed at once to one title, each answer and get an address of their own", async () => {
    const a = await createAuthor(s);
    const others = [];
    for (let i = 0; i < 8; i++) others.push((await create(a, { title: `Draft ${i}`, content: "<p>x</p>" })).body.post);
    const [created, renamed] = await Promise.all([
      Promise.all(Array.from({ length: 16 }, () => create(a, { title: "Book launch", content: "<p>y</p>" }))),
      Promise.all(
        others.map((p) =>
          readJson(apiClient(s, a).posts[":id"].$patch({ param: { id: p.id }, json: { title: "Book launch" } })),
        ),
      ),
    ]);
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    expect(renamed.map((r) => r.status)).toEqual(renamed.map(() => 200));
    const slugs = [...created, ...renamed].map((r) => r.body.post.slug as string);
    expect(new Set(slugs).size).toBe(24);
    expect(slugs.every((slug) => /^book-launch(-\d+)?$/.test(slug))).toBe(true);
  });

  it("appear in the sitemap and the RSS feed at their own address", async () => {
    const a = await createAuthor(s);
    const host = `${a.subdomain}.localhost`;
    await create(a, { title: "Feed me", content: '<p>Words <img src="https://img.example/p.jpg" alt="x"></p>' });
    const origin = `http://${host}:${s.port}`;
    expect((await s.onHost(host, "/sitemap.xml")).body).toContain(`<loc>${origin}/blog/feed-me</loc>`);
    expect((await s.onHost(host, "/rss.xml")).body).toContain(`<link>${origin}/blog/feed-me</link>`);
    const page = (await s.onHost(host, "/blog/feed-me")).body;
    expect(page).toContain('<meta property="og:image" content="https://img.example/p.jpg"/>');
    expect(page).toContain('"@type":"BlogPosting"');
  });

  it("are only on their author's site: the same address elsewhere is not found", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await create(a, { title: "Only mine", content: "<p>Private words</p>" });
    expect((await s.onHost(`${a.subdomain}.localhost`, "/blog/only-mine")).status).toBe(200);
    const other = await s.onHost(`${b.subdomain}.localhost`, "/blog/only-mine");
    expect(other.status).toBe(404);
    expect(other.body).not.toContain("Private words");
    // Both may use the same address for their own posts.
    expect((await create(b, { title: "Only mine", content: "<p>Hers</p>" })).body.post.slug).toBe("only-mine");
  });
});
