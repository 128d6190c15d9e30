// Every screen on a phone (390 × 844): each SPA route in src/web/app/router.tsx (read from the
// file, so a new route is visited by default), the wizard's steps, the back office's tabs, the
// marketing pages, and every public page of the demo, a filled site and a fresh one. A screen
// fails when the page is wider than the phone, when an open dialog pokes out of the window, when
// the cookie banner hides content, or when axe-core finds a serious or critical problem.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setRole } from "../src/app/cli/admin.ts";
import { SITEMAP_PATHS } from "../src/marketing/routes.tsx";
import { DEMO_SUBDOMAIN } from "../src/shared/reserved-subdomains.ts";
import { ADMIN_TABS } from "../src/shared/schemas/admin.ts";
import { SUBDOMAIN_MAX } from "../src/shared/schemas/onboarding.ts";
import { startTestServer, type TestServer } from "../src/testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../src/testing/users.ts";
import { hasChromium } from "./chromium.ts";
import { browserDescribe, createVerifiedUser, launchBrowser, PASSWORD, shot, signInThroughUi } from "./fixtures.ts";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const PHONE = { width: 390, height: 844 };
/** A subdomain as long as one may be. */
const LONGEST = "harrietlongnamewhitfield".padEnd(SUBDOMAIN_MAX, "books");

/** The paths of the SPA's route table, as written in the router. */
export function routerPaths(): string[] {
  const source = readFileSync(new URL("../src/web/app/router.tsx", import.meta.url), "utf8");
  return [...source.matchAll(/\bpath:\s*"([^"]+)"/g)].map((m) => m[1] as string);
}

type Problem = string;

/** What is wrong with the screen as it stands: overflow, dialogs off-screen, a hiding banner. */
async function layoutProblems(page: Page): Promise<Problem[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const width = document.documentElement.scrollWidth;
    if (width > vw) {
      // Name the widest offenders, so the failure says where to look.
      const wide = [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => el.getBoundingClientRect().right > vw + 0.5 && el.getClientRects().length > 0)
        .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= vw + 0.5)
        .slice(0, 4)
        .map((el) => {
          const cls = typeof el.className === "string" ? el.className.split(/\s+/).slice(0, 4).join(".") : "";
          return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ""} (right ${Math.round(el.getBoundingClientRect().right)})`;
        });
      // Or text running out of its box (a long word): the box fits, its content does not.
      if (!wide.length)
        for (const el of document.querySelectorAll<HTMLElement>("body *"))
          if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible" && wide.length < 4)
            wide.push(
              `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}" (text ${el.scrollWidth}px in ${el.clientWidth}px)`,
            );
      problems.push(`page is ${width}px wide: ${wide.join(", ")}`);
    }
    const open = document.querySelectorAll<HTMLElement>(
      '[role="dialog"], [role="alertdialog"], dialog[open], [data-radix-popper-content-wrapper], [popover]',
    );
    for (const el of open) {
      if (el.matches("[popover]") && !el.matches(":popover-open")) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        const name = el.getAttribute("aria-label") ?? el.querySelector("h2, h3")?.textContent ?? el.tagName;
        problems.push(
          `dialog "${name}" at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} is outside the ${vw}×${vh} window`,
        );
      }
    }
    // The cookie banner may float only if the page keeps room for it: sticky as the last thing
    // on the page (its own place at the end), or fixed over a bottom padding as tall as itself.
    const isLastDrawn = (el: Element) => {
      for (let next = el.nextElementSibling; next; next = next.nextElementSibling)
        if (next.getClientRects().length > 0) return false;
      return el.parentElement === document.body;
    };
    const banner = document.querySelector<HTMLElement>('form[aria-label="Cookie consent"]');
    if (banner && banner.getClientRects().length > 0) {
      const style = getComputedStyle(banner);
      const room = Number.parseFloat(getComputedStyle(document.body).paddingBottom) || 0;
      const covers =
        style.position === "fixed"
          ? room + 0.5 < banner.getBoundingClientRect().height
          : style.position === "sticky" && !isLastDrawn(banner);
      if (covers) problems.push(`the cookie banner (${style.position}) covers the end of the page`);
      if (banner.getBoundingClientRect().height > vh * 0.15)
        problems.push(`the cookie banner is ${Math.round(banner.getBoundingClientRect().height)}px tall`);
    }
    return problems;
  });
}

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** Serious and critical axe-core findings (evaluated in the page, so no CSP exception is needed). */
async function seriousAxe(page: Page): Promise<Problem[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

let s: TestServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
const found: Record<string, Problem[]> = {};
const checked: string[] = [];

/** Lets the screen settle (lazy chunks, queries, web fonts), then records what is wrong with it. */
async function check(page: Page, name: string) {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page
    .getByRole("status")
    .filter({ hasText: /^Loading/ })
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const problems = [...(await layoutProblems(page)), ...(await seriousAxe(page))];
  checked.push(name);
  if (problems.length) found[name] = problems;
  await shot(page, `phone-${name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}`, { viewport: true });
}

async function phonePage(baseURL = s.url): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, deviceScaleFactor: 1, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

async function signedIn(email: string, landing: (u: URL) => boolean): Promise<Page> {
  const page = await phonePage();
  await signInThroughUi(page, email, PASSWORD);
  await page.waitForURL(landing);
  return page;
}

async function createBook(a: TestAuthor, title: string): Promise<Response> {
  return s.api("/api/books", {
    method: "POST",
    cookie: a.cookie,
    json: { title, author: a.name, shortBlurb: "<p>A short blurb.</p>", releaseDate: "2024-03-14" },
  });
}

async function bookId(a: TestAuthor, title: string): Promise<string> {
  const res = await createBook(a, title);
  if (res.status !== 201) throw new Error(`book not created: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { book: { id: string } }).book.id;
}

/** The address each SPA route is visited at; a route not named here is visited as written. */
function spaVisit(path: string, ids: { book: string }): string | null {
  if (path === "/main" || path === "/pricing/choose") return null; // redirects, no screen of their own
  if (path === "*") return "/no-such-screen";
  if (path === "/dashboard/*") return "/dashboard/no-such-section";
  if (path === "/edit-book/:id") return `/edit-book/${ids.book}`;
  if (path.startsWith("/admin")) return null; // the back office: its tabs, as a super admin
  if (path === "/onboarding") return null; // the wizard: its steps, below
  return path;
}

const SIGNED_OUT = new Set(["/login", "/signup", "/forgot-password", "/reset-password", "/verify-email"]);

beforeAll(async () => {
  if (!hasChromium) return;
  [s, browser] = await Promise.all([startTestServer({ SEED_DEMO: "true" }), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

browserDescribe("every screen on a 390 px phone", () => {
  it("the route table is read: the router's paths are found", () => {
    const paths = routerPaths();
    expect(paths).toContain("/dashboard/settings");
    expect(paths).toContain("/add-book");
    expect(paths.length).toBeGreaterThan(20);
  });

  it("the signed-in author's screens, the signed-out screens and the dialogs", async () => {
    // The longest address there is (one unbreakable word), whatever the clock makes other tests'.
    const author = await createAuthor(s, { tier: "mini", name: "Harriet Longname-Whitfield", subdomain: LONGEST });
    const ids = { book: await bookId(author, "The Extraordinarily Long Title of a First Novel") };
    const page = await signedIn(author.email, (u) => u.pathname === "/dashboard");
    const signedOut = await phonePage();
    for (const path of routerPaths()) {
      const url = spaVisit(path, ids);
      if (!url) continue;
      const p = SIGNED_OUT.has(path) ? signedOut : page;
      await p.goto(url);
      await check(p, `app ${url}`);
    }
    // The signed-out screens' 404 too.
    await signedOut.goto("/dashboard");
    await signedOut.waitForURL((u) => u.pathname === "/login");

    // The book limit reached: Add Book opens Upgrade Required over the form.
    while ((await createBook(author, "Another book")).status === 201);
    await page.goto("/add-book");
    await page.getByRole("dialog", { name: "Upgrade Required" }).waitFor();
    await check(page, "app /add-book (Upgrade Required)");

    // The delete dialog on the books list.
    await page.goto("/dashboard/books");
    await page
      .getByRole("button", { name: /delete/i })
      .first()
      .click();
    await page.getByRole("alertdialog").or(page.getByRole("dialog")).first().waitFor();
    await check(page, "app /dashboard/books (delete dialog)");
    await page.context().close();
    await signedOut.context().close();
  }, 240_000);

  it("the wizard's steps, and the back office as a super admin", async () => {
    const newcomer = await createVerifiedUser(s, { name: "Wilhelmina Applegate-Montgomery" });
    const page = await signedIn(newcomer.email, (u) => u.pathname === "/onboarding");
    await page.getByText("Step 1 of 3").waitFor();
    await check(page, "wizard step 1");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Step 2 of 3").waitFor();
    await page.getByLabel("Choose Your URL").fill("");
    await check(page, "wizard step 2 (no address yet)");
    await page.getByLabel("Website Name").fill("Wilhelmina's Books");
    await page.getByLabel("Choose Your URL").fill(`wilhelmina${LONGEST}`.slice(0, SUBDOMAIN_MAX));
    await page.getByTestId("subdomain-status").getByText("Available").waitFor();
    // The whole address shows before the author commits to it, however long (not cut short).
    const preview = page.getByTestId("address-preview");
    expect(await preview.textContent()).toContain(`wilhelmina${LONGEST}`.slice(0, SUBDOMAIN_MAX));
    expect(await preview.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await check(page, "wizard step 2");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Step 3 of 3").waitFor();
    await check(page, "wizard step 3");
    await page.getByRole("button", { name: "Start Trial & Enter Payment" }).click();
    // No 'ready' screen any more: the wizard goes straight on to payment (ADR 055).
    await page.waitForURL("**/billing/sandbox/checkout**", { timeout: 20_000 });
    await page.context().close();

    const staff = await createVerifiedUser(s, { name: "Staff Person" });
    await setRole(s.database.db, staff.email, "super_admin");
    const admin = await signedIn(staff.email, (u) => u.pathname.startsWith("/admin"));
    for (const tab of ADMIN_TABS) {
      await admin.goto(`/admin/${tab}`);
      await check(admin, `admin ${tab}`);
    }
    await admin.context().close();
  }, 240_000);

  it("the marketing pages", async () => {
    const page = await phonePage();
    for (const path of SITEMAP_PATHS) {
      if (path === "/demo") continue; // the demo site, below
      await page.goto(path);
      await check(page, `marketing ${path}`);
    }
    await page.context().close();
  }, 120_000);

  it("every public page of the demo, a filled site and a fresh one", async () => {
    const fresh = await createAuthor(s, { name: "Nell Newcomer" });
    const filled = await createAuthor(s, { tier: "midi", name: "Bartholomew Featherstonehaugh" });
    for (const t of ["The Glass Orchard", "Winter Bees"]) {
      const res = await s.api("/api/books", {
        method: "POST",
        cookie: filled.cookie,
        json: { title: t, author: filled.name, seriesName: "Orchard Cycle", shortBlurb: "<p>Blurb.</p>" },
      });
      expect(res.status).toBe(201);
    }
    const sites = [
      { name: "demo", origin: `http://${DEMO_SUBDOMAIN}.localhost:${s.port}` },
      { name: "filled", origin: `http://${filled.subdomain}.localhost:${s.port}` },
      { name: "fresh", origin: `http://${fresh.subdomain}.localhost:${s.port}` },
    ];
    for (const site of sites) {
      const page = await phonePage(site.origin);
      const visit = async (path: string, label = path) => {
        await page.goto(path);
        await check(page, `${site.name} ${label}`);
      };
      await visit("/");
      // The header stays one line on a phone, and its menu opens inside the window.
      const header = await page.locator("header.site").boundingBox();
      expect(header?.height, `${site.name}: header height`).toBeLessThan(72);
      await page.getByRole("navigation", { name: "Main" }).getByText("Menu").click();
      for (const link of await page.getByRole("navigation", { name: "Main" }).getByRole("link").all()) {
        const box = await link.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height).toBe(true);
      }
      await check(page, `${site.name} / (menu open)`);
      await visit("/books");
      const firstHref = async (sel: string) =>
        (await page.locator(sel).count()) ? await page.locator(sel).first().getAttribute("href") : null;
      const book = await firstHref('main a[href*="/book/"]');
      if (book) await visit(book, "/book/…");
      const series = await firstHref('main a[href*="/series/"]');
      if (!series && site.name !== "fresh") {
        // The filled site and the demo have series; a book page links to its series.
        if (book) await page.goto(book);
      }
      const seriesLink = series ?? (await firstHref('a[href*="/series/"]'));
      if (seriesLink) await visit(seriesLink, "/series/…");
      await visit("/about");
      await visit("/blog");
      const post = await firstHref('main a[href*="/blog/"]');
      if (post) await visit(post, "/blog/…");
      await visit("/newsletter");
      await visit("/contact");
      await visit("/privacy");
      await visit("/no-such-page", "404");
      if (site.name === "demo") {
        expect(book, "the demo has books").toBeTruthy();
        expect(seriesLink, "the demo has a series").toBeTruthy();
        expect(post, "the demo has posts").toBeTruthy();
      }
      await page.context().close();
    }
    // The demo shown on the app host, as the marketing site links to it.
    const page = await phonePage();
    await page.goto("/demo");
    await check(page, "marketing /demo");
    await page.context().close();
  }, 240_000);

  it("reports what it found", () => {
    expect(checked.length).toBeGreaterThan(60);
    expect(found).toEqual({});
  });

  it("checks what it claims: an over-wide element and an off-screen dialog are reported", async () => {
    const page = await phonePage();
    await page.goto("/features");
    await page.evaluate(() => {
      const wide = document.createElement("div");
      wide.style.width = "498px";
      wide.style.height = "10px";
      document.body.append(wide);
      const dialog = document.createElement("div");
      dialog.setAttribute("role", "dialog");
      dialog.setAttribute("aria-label", "Stray");
      Object.assign(dialog.style, { position: "fixed", left: "300px", top: "10px", width: "200px", height: "50px" });
      document.body.append(dialog);
    });
    const problems = await layoutProblems(page);
    expect(problems.some((p) => /^page is 4\d\dpx wide/.test(p))).toBe(true);
    expect(problems.some((p) => p.includes('dialog "Stray"'))).toBe(true);
    await page.context().close();
  });
});
