// What the browser specs share: one real server and one Chromium per file, a fresh browser
// context (own cookies) per test, and quick API helpers for accounts the test does not need
// to create through the screens.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe } from "vitest";
import { firstLink } from "../src/testing/smtp-catcher.ts";
import { startTestServer, type TestServer } from "../src/testing/test-server.ts";
import { createAuthor } from "../src/testing/users.ts";
import { CHROMIUM_PATH, hasChromium } from "./chromium.ts";

export { firstLink };
export const PASSWORD = "correct horse battery";

/** describe() when Chromium is present, otherwise a skipped describe (global setup warned). */
export const browserDescribe = hasChromium ? describe : describe.skip;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export type E2E = { server: TestServer; browser: Browser };

/**
 * Starts the server and browser for this file; the returned object fills in before the tests.
 * Closing the browser closes every context the tests opened.
 */
/** `env`: settings for the server, computed once the file's other servers (DNS, say) are up. */
export function setupE2E(env: () => Record<string, string> = () => ({})): E2E {
  const ctx = {} as E2E;
  beforeAll(async () => {
    if (!hasChromium) return;
    const [server, browser] = await Promise.all([startTestServer(env()), launchBrowser()]);
    ctx.server = server;
    ctx.browser = browser;
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
  });
  return ctx;
}

export async function newPage(e: E2E): Promise<Page> {
  const context = await e.browser.newContext({ baseURL: e.server.url, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

let counter = 0;
export function uniqueEmail(prefix = "author"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** An account with a verified email, made through the API. */
export async function createVerifiedUser(server: TestServer, opts: { email?: string; name?: string } = {}) {
  const email = opts.email ?? uniqueEmail();
  const name = opts.name ?? "Jane Author";
  const res = await server.api("/api/auth/sign-up/email", {
    method: "POST",
    json: { name, email, password: PASSWORD },
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const mail = await server.smtp.waitFor(email, "Confirm your email");
  const verify = await fetch(firstLink(mail.text), { redirect: "manual" });
  if (verify.status >= 400) throw new Error(`verification failed: ${verify.status}`);
  return { email, name, password: PASSWORD };
}

/**
 * An author who has finished onboarding (website and trial) and, unless `checkout: false`, the
 * sandbox checkout; signing in lands on the dashboard.
 */
export async function createAuthorAccount(server: TestServer, opts: { checkout?: boolean } = {}) {
  const author = await createAuthor(server, opts);
  return { email: author.email, name: author.name, password: PASSWORD, subdomain: author.subdomain };
}

/** Signs in through the login screen and waits for the dashboard. */
export async function signInThroughUi(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/**
 * Set E2E_SCREENSHOTS=dir to keep pictures of the screens for a person to look at: the whole
 * page as `{name}.png`, or with `viewport`, what fits the window as `{name}.png` and the whole
 * page as `{name}-full.png`.
 */
export async function shot(page: Page, name: string, opts: { viewport?: boolean } = {}) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  if (opts.viewport) {
    await page.screenshot({ path: join(dir, `${name}.png`) });
    await page.screenshot({ path: join(dir, `${name}-full.png`), fullPage: true });
  } else {
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  }
}

/**
 * Clicks a save button and waits for the server's answer to the write it sends. A second save's
 * "saved" message can otherwise be matched by the first one's, still on screen.
 */
export async function clickAndSave(page: Page, button: ReturnType<Page["getByRole"]>) {
  const answered = page.waitForResponse(
    (r) => new URL(r.url()).pathname.startsWith("/api/") && r.request().method() !== "GET",
  );
  await button.click();
  const res = await answered;
  if (!res.ok()) throw new Error(`the save answered ${res.status()}`);
}
