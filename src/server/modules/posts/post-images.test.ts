// Pictures in posts are uploaded on their own, before the post that shows them is saved. Once no
// post of the author's shows one (taken out of a post, or the post deleted) and it is older than
// the grace an unsaved post may take, saving or deleting a post removes its files, every width.
// Pictures still shown, pictures too new to judge, and other authors' pictures stay.
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, expectStatus, type Json } from "../../../testing/api-client.ts";
import { filesUnder, pngForm } from "../../../testing/files.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { POST_IMAGE_GRACE_MS } from "./posts.service.ts";

let s: TestServer;
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-post-images-"));
beforeAll(async () => {
  s = await startTestServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function uploadPicture(a: TestAuthor): Promise<{ url: string; variants: { url: string }[] }> {
  const form = await pngForm(1600, 900, { r: 20, g: 90, b: 160 }, "p.png");
  // A multipart upload: sent as the browser's form, which the typed client does not build.
  const res = await s.api("/api/posts/images", { method: "POST", cookie: a.cookie, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json).image;
}

const dirOf = (a: TestAuthor) => join(dataDir, "uploads", "posts", a.id);
const filesOf = (a: TestAuthor) => filesUnder(dirOf(a));
const namesOf = (...images: { variants: { url: string }[] }[]) =>
  images.flatMap((i) => i.variants.map((v) => v.url.split("/").at(-1) ?? "")).sort();
/** Makes every stored picture of the author's older than the grace. */
const age = (a: TestAuthor) => {
  const past = new Date(Date.now() - POST_IMAGE_GRACE_MS - 60_000);
  for (const f of filesOf(a)) utimesSync(join(dirOf(a), f), past, past);
};
const html = (...images: { url: string }[]) =>
  `<p>Words.</p>${images.map((i) => `<p><img src="${i.url}" alt="A picture"></p>`).join("")}`;

const postsOf = (a: TestAuthor) => apiClient(s, a).posts;

describe("post pictures", () => {
  it("go when no post shows them any more, every width; shown, new and others' pictures stay", async () => {
    const jane = await createAuthor(s);
    const other = await createAuthor(s);
    const kept = await uploadPicture(jane);
    const dropped = await uploadPicture(jane);
    const second = await uploadPicture(jane);
    const theirs = await uploadPicture(other);
    expect(kept.variants.length).toBeGreaterThan(1);
    const first = (
      await expectStatus(postsOf(jane).$post({ json: { title: "First", content: html(kept, dropped) } }), 201)
    ).post;
    const secondPost = (
      await expectStatus(postsOf(jane).$post({ json: { title: "Second", content: html(second) } }), 201)
    ).post;
    await expectStatus(postsOf(other).$post({ json: { title: "Theirs", content: html(theirs) } }), 201);
    age(jane);
    age(other);

    // Taken out of the post: its files go once the post is saved; a picture uploaded a moment
    // ago for a post not saved yet stays.
    const pending = await uploadPicture(jane);
    await expectStatus(postsOf(jane)[":id"].$patch({ param: { id: first.id }, json: { content: html(kept) } }), 200);
    expect(filesOf(jane)).toEqual(namesOf(kept, second, pending));
    // A change that leaves the HTML alone does not look.
    age(jane);
    await expectStatus(
      postsOf(jane)[":id"].$patch({ param: { id: first.id }, json: { title: "First, renamed" } }),
      200,
    );
    expect(filesOf(jane)).toEqual(namesOf(kept, second, pending));

    // The post deleted: its pictures go; the other post's, and the other author's, stay.
    await expectStatus(postsOf(jane)[":id"].$delete({ param: { id: secondPost.id } }), 204);
    expect(filesOf(jane)).toEqual(namesOf(kept));
    expect(filesOf(other)).toEqual(namesOf(theirs));

    // What a post shows is still served, at every width.
    for (const v of kept.variants) expect((await fetch(`${s.url}${v.url}`)).status).toBe(200);
  });
});
