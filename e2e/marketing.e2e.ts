// The marketing site in a real browser: every page with JavaScript off (it needs none) reads
// and navigates, the FAQ opens one answer at a time, the contact form works, and axe-core finds
// no accessibility violation on any page.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { STATIC_PAGES } from "../src/marketing/routes.tsx";
import { browserDescribe, createAuthorAccount, setupE2E, shot, signInThroughUi } from "./fixtures.ts";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const e = setupE2E(() => ({ SEED_DEMO: "true" }));

async function page(js: boolean, width = 1280): Promise<Page> {
  const context = await e.browser.newContext({
    baseURL: e.server.url,
    javaScriptEnabled: js,
    viewport: { width, height: 900 },
  });
  const p = await context.newPage();
  p.setDefaultTimeout(15_000);
  return p;
}

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

async function axeViolations(p: Page): Promise<string[]> {
  await p.evaluate(AXE_SOURCE);
  const violations = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as AxeViolation[]).map(
    (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
}

browserDescribe("marketing site", () => {
  it("reads and navigates with JavaScript off, from the header and the footer", async () => {
    const p = await page(false);
    const res = await p.goto("/");
    expect(res?.status()).toBe(200);
    await p.getByRole("heading", { level: 1, name: "A website as good as your books" }).waitFor();
    await shot(p, "marketing-home");
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Features" }).click();
    await p.waitForURL((u) => u.pathname === "/features");
    await p.getByRole("heading", { name: "Every feature, on every plan" }).waitFor();
    expect(await p.getByRole("list").filter({ hasText: "Book pages" }).getByRole("listitem").count()).toBe(16);
    await shot(p, "marketing-features");
    await p.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: "Cookies" }).click();
    await p.waitForURL((u) => u.pathname === "/cookies");
    await p.getByText("cookie_consent").waitFor();
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).click();
    await p.waitForURL((u) => u.pathname === "/faq");

    // One answer open at a time, with no script.
    const answer = (q: string) => p.locator("details").filter({ hasText: q });
    expect(await answer("What is Bookplate?").getAttribute("open")).not.toBeNull();
    await p.getByText("How does the free trial work?").click();
    expect(await answer("How does the free trial work?").getAttribute("open")).not.toBeNull();
    expect(await answer("What is Bookplate?").getAttribute("open")).toBeNull();
    await shot(p, "marketing-faq");

    // Pricing without JavaScript: the currency links re-render the page, and the choice stays.
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
    await p.getByRole("navigation", { name: "Currency" }).getByRole("link", { name: "USD" }).click();
    expect(await p.getByTestId("price-mini").textContent()).toBe("$4.99");
    // The plan card is shared with the dashboard (src/shared): its styles are in this page's sheet.
    const badge = p.getByRole("article", { name: "Midi" }).getByText("Most popular");
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(224, 231, 255)");
    await shot(p, "marketing-pricing");
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).click();
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
    expect(await p.getByTestId("price-mini").textContent()).toBe("$4.99");
  });

  it("sends the contact form with JavaScript off and says so", async () => {
    const p = await page(false, 390);
    await p.goto("/contact");
    await p.getByRole("button", { name: "Send message" }).click();
    await p.getByText("Name is required").waitFor();
    await p.getByLabel("Name").fill("Ann Reader");
    await p.getByLabel("Email").fill(`ann-${Date.now()}@example.com`);
    await p.getByLabel("Subject").fill("Do you import from WordPress?");
    await p.getByLabel("Message").fill("I have 40 books on my old site.");
    await p.getByRole("button", { name: "Send message" }).click();
    await p.getByText("Thank you for your message! We'll get back to you soon.").waitFor();
    await shot(p, "marketing-contact-sent-phone");
  });

  it("serves the app's assets precompressed (brotli, gzip) and keeps the first screen's script small", async () => {
    type Entry = { file: string; imports?: string[]; css?: string[] };
    const manifest = JSON.parse(readFileSync("dist/web/.vite/manifest.json", "utf8")) as Record<string, Entry>;
    const entry = manifest["index.html"];
    if (!entry) throw new Error("no app entry in the manifest");
    // What a first visit loads before any screen's own chunk: the entry and its static imports.
    const files = new Set<string>();
    const walk = (e: Entry) => {
      if (files.has(e.file)) return;
      files.add(e.file);
      for (const i of e.imports ?? []) if (manifest[i]) walk(manifest[i] as Entry);
    };
    walk(entry);
    const js = [...files].filter((f) => f.endsWith(".js"));
    const brotliBytes = js.reduce((sum, f) => sum + statSync(join("dist/web", `${f}.br`)).size, 0);
    expect(brotliBytes).toBeLessThan(200 * 1024);

    const url = `${e.server.url}/${entry.file}`;
    const plain = await fetch(url, { headers: { "accept-encoding": "identity" } });
    const plainBody = await plain.text();
    for (const [encoding, expected] of [
      ["br, gzip", "br"],
      ["gzip", "gzip"],
    ] as const) {
      const res = await fetch(url, { headers: { "accept-encoding": encoding } });
      expect(res.headers.get("content-encoding")).toBe(expected);
      expect(res.headers.get("vary")).toContain("Accept-Encoding");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      // fetch decodes it: the same script either way.
      expect(await res.text()).toBe(plainBody);
    }
    expect(plain.headers.get("content-encoding")).toBeNull();
  });

  it("enlarges a screenshot in a dialog with JavaScript on, and links to it with JavaScript off", async () => {
    const p = await page(true);
    await p.goto("/features");
    const first = p.getByRole("link", { name: /The author dashboard/ });
    await first.click();
    const dialog = p.getByRole("dialog", { name: "Your dashboard" });
    await dialog.waitFor();
    expect(await dialog.getByRole("img").getAttribute("src")).toMatch(/^\/gallery\/dashboard-1280-/);
    await shot(p, "marketing-features-enlarged");
    await p.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    const off = await page(false);
    await off.goto("/features");
    await off.getByRole("link", { name: /The author dashboard/ }).click();
    await off.waitForURL((u) => /^\/gallery\/dashboard-1280-[0-9a-f]+\.webp$/.test(u.pathname));
  });

  it("takes a signed-in author from any page to their dashboard, and offers sign-in after they sign out", async () => {
    const author = await createAuthorAccount(e.server);
    const p = await page(true);
    await signInThroughUi(p, author.email, author.password);
    await p.waitForURL((u) => u.pathname === "/dashboard");
    await p.goto("/features");
    const header = p.getByRole("banner");
    await header.getByRole("link", { name: "Your dashboard" }).waitFor();
    expect(await header.getByRole("link", { name: "Sign in" }).count()).toBe(0);
    expect(await axeViolations(p)).toEqual([]);
    await shot(p, "marketing-signed-in", { viewport: true });
    await header.getByRole("link", { name: "Your dashboard" }).click();
    await p.waitForURL((u) => u.pathname === "/dashboard");
    await p.getByRole("button", { name: /sign out/i }).click();
    await p.waitForURL((u) => u.pathname === "/login");
    await p.goto("/features");
    await p.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
    expect(await p.getByRole("banner").getByRole("link", { name: "Your dashboard" }).count()).toBe(0);
  });

  it("has no accessibility violations on any page", async () => {
    const p = await page(true);
    for (const path of [...Object.keys(STATIC_PAGES), "/pricing", "/no-such-page"]) {
      await p.goto(path);
      expect(await axeViolations(p), path).toEqual([]);
    }
  });
});
