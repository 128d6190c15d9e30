// The account page: change the password, see and end sessions on other devices.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { unzip } from "../src/server/lib/zip.ts";
import { cookiesFrom } from "../src/testing/test-server.ts";
import { browserDescribe, createAuthorAccount, newPage, PASSWORD, setupE2E, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

async function signInElsewhere(email: string, password: string, agent: string) {
  const res = await e.server.api("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "user-agent": agent },
    json: { email, password },
  });
  expect(res.status).toBe(200);
  return cookiesFrom(res);
}

const stillSignedIn = async (cookie: string) => (await e.server.api("/api/profile", { cookie })).status === 200;

browserDescribe("account page", () => {
  it("lists sessions, signs out another device and all other devices", async () => {
    const { email } = await createAuthorAccount(e.server);
    const phone = await signInElsewhere(email, PASSWORD, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1");
    const page = await newPage(e);
    await signInThroughUi(page, email);
    await page.waitForURL("**/dashboard");
    await page.goto("/account");

    const sessions = page.getByRole("list", { name: "Sessions" }).getByRole("listitem");
    await page.getByText("This device", { exact: true }).waitFor();
    await page.getByText("Safari on iOS").waitFor();
    expect(await sessions.count()).toBeGreaterThanOrEqual(2);

    await page.getByRole("button", { name: "Sign out Safari on iOS" }).click();
    await page.getByText("Signed out of that device").waitFor();
    await page.getByText("Safari on iOS").waitFor({ state: "detached" });
    expect(await stillSignedIn(phone)).toBe(false);

    const laptop = await signInElsewhere(email, PASSWORD, "Mozilla/5.0 (Windows NT 10.0) Firefox/130.0");
    await page.reload();
    await page.getByText("Firefox on Windows").waitFor();
    await page.getByRole("button", { name: "Sign out of all other devices" }).click();
    await page.getByText("Signed out of all other devices").waitFor();
    expect(await stillSignedIn(laptop)).toBe(false);
    // The message shows as the request returns; the list follows when it is read again.
    await page.getByText("Firefox on Windows").waitFor({ state: "detached" });
    for (let i = 0; i < 50 && (await sessions.count()) !== 1; i++) await page.waitForTimeout(100);
    expect(await sessions.count()).toBe(1);

    await page.getByRole("button", { name: "Sign out of all devices" }).click();
    await page.waitForURL("**/login");
    await page.goto("/account");
    await page.waitForURL("**/login");
  });

  it("changes the password", async () => {
    const { email } = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, email);
    await page.waitForURL("**/dashboard");
    await page.goto("/account");
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password").fill("my new long passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toMatch(/invalid password/i);

    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password changed").waitFor();
    expect(
      (await e.server.api("/api/auth/sign-in/email", { method: "POST", json: { email, password: PASSWORD } })).status,
    ).toBe(401);
    await signInElsewhere(email, "my new long passphrase", "check");
  });

  it("downloads everything, then deletes the account after the email is typed", async () => {
    const { email, subdomain } = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, email);
    await page.waitForURL("**/dashboard");
    // Something to take away: a post.
    await page.goto("/dashboard/blog");
    await page.getByRole("button", { name: "New Post" }).first().click();
    await page.getByLabel("Title").fill("Last words");
    await page.getByRole("textbox", { name: "Content" }).click();
    await page.keyboard.type("Thank you, readers.");
    await page.getByRole("button", { name: "Create Post" }).click();
    await page.getByText("Post created successfully!").waitFor();

    await page.goto("/account");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download everything" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^bookplate-${subdomain}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    const path = await download.path();
    const archive = unzip(readFileSync(path));
    const data = JSON.parse(String(archive.get("bookplate-export/data.json")));
    expect(data.posts.map((p: { title: string }) => p.title)).toEqual(["Last words"]);

    // The button waits for the exact address.
    const confirm = page.getByLabel(/^Type .* to confirm$/);
    const remove = page.getByRole("button", { name: "Delete account permanently" });
    await confirm.fill("someone@example.com");
    expect(await remove.isDisabled()).toBe(true);
    await confirm.fill(email);
    await remove.click();
    await page.waitForURL("**/login");
    await page.getByText("Your account and website have been deleted.").waitFor();

    // Gone: the address no longer signs in, and the site is not found.
    expect(
      (await e.server.api("/api/auth/sign-in/email", { method: "POST", json: { email, password: PASSWORD } })).status,
    ).toBe(401);
    const site = await page.context().newPage();
    const res = await site.goto(`http://${subdomain}.localhost:${e.server.port}/`);
    expect(res?.status()).toBe(404);
    await site.getByRole("heading", { name: "Author not found" }).waitFor();
  });
});
