// npm run bench:lighthouse — Lighthouse (mobile settings: emulated phone, simulated slow 4G and
// 4x CPU slowdown) on the demo site's home, books, one book page and the blog, both as /demo on
// the app host and on the demo author's tenant host, and on every marketing page, served by the
// production server on a fresh embedded database. Prints the four category scores per page and
// writes them to the 'Lighthouse' section of bench/RESULTS.md (other sections are kept).
//
// Uses Debian's chromium (CHROMIUM_PATH, default /usr/bin/chromium); never downloads a browser.
// Not part of `npm test`: it takes about a minute and measures, it does not assert.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import { freePort, writeSection } from "./lib.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const LABELS: Record<(typeof CATEGORIES)[number], string> = {
  performance: "Performance",
  accessibility: "Accessibility",
  "best-practices": "Best practices",
  seo: "SEO",
};

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let exited: number | null = null;
  child.once("exit", (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`${what} exited with ${exited}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not come up at ${url}`);
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      ok();
    });
    child.kill("SIGTERM");
  });
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-lighthouse-"));
  const profileDir = mkdtempSync(join(tmpdir(), "bookplate-lighthouse-chromium-"));
  const port = await freePort();
  const debugPort = await freePort();
  // LIGHTHOUSE_ORIGIN measures an already running server instead (handy while fixing a page).
  const external = process.env.LIGHTHOUSE_ORIGIN;
  const origin = external ?? `http://localhost:${port}`;
  let server: ChildProcess | undefined;
  let chromium: ChildProcess | undefined;
  try {
    if (!external)
      server = spawn(process.execPath, ["--import", "tsx", "src/app/main.ts"], {
        env: {
          ...process.env,
          NODE_ENV: "production",
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          PORT: String(port),
          HOST: "127.0.0.1",
          APP_ORIGIN: origin,
          LOG_LEVEL: "warn",
          SEED_DEMO: "true",
        },
        stdio: ["ignore", "inherit", "inherit"],
      });
    if (server) await waitFor(`${origin}/readyz`, server, "server");

    const books = await (await fetch(`${origin}/demo/books`)).text();
    const bookId = /href="\/demo\/book\/([a-z0-9-]+)"/.exec(books)?.[1];
    if (!bookId) throw new Error("the demo site has no book to measure");
    // The same four pages twice: the read-only demo on the app host, and the demo author's own
    // site on its tenant host, which is what every real author's site is.
    const tenant = process.env.LIGHTHOUSE_TENANT_ORIGIN ?? origin.replace("//", "//demo.");
    const pages = [
      ["Home", origin, "/demo"],
      ["Books", origin, "/demo/books"],
      ["Book page", origin, `/demo/book/${bookId}`],
      ["Blog", origin, "/demo/blog"],
      ["Home", tenant, "/"],
      ["Books", tenant, "/books"],
      ["Book page", tenant, `/book/${bookId}`],
      ["Blog", tenant, "/blog"],
      // The marketing site (server-rendered on the app host).
      ["Landing", origin, "/"],
      ["Pricing", origin, "/pricing"],
      ["Features", origin, "/features"],
      ["FAQ", origin, "/faq"],
      ["Our story", origin, "/our-story"],
      ["Contact", origin, "/contact"],
      ["Terms", origin, "/terms"],
      ["Privacy", origin, "/privacy-legal"],
      ["Cookies", origin, "/cookies"],
    ] as const;
    // LIGHTHOUSE_ONLY="Home,Book page" measures only the pages with those labels, and then prints
    // without touching RESULTS.md (a partial table would replace the full one).
    const only = process.env.LIGHTHOUSE_ONLY?.split(",").map((l) => l.trim());
    const measured = only ? pages.filter(([label]) => only.includes(label)) : pages;
    // LIGHTHOUSE_THROTTLING=devtools slows the real network and CPU instead of simulating them, so
    // a web font really arrives late and any layout shift it causes is counted.
    const throttlingMethod = process.env.LIGHTHOUSE_THROTTLING === "devtools" ? "devtools" : undefined;

    chromium = spawn(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profileDir}`,
        `--remote-debugging-port=${debugPort}`,
        "about:blank",
      ],
      { stdio: "ignore" },
    );
    await waitFor(`http://127.0.0.1:${debugPort}/json/version`, chromium, "chromium");

    const rows: { label: string; host: string; path: string; scores: number[] }[] = [];
    for (const [label, base, path] of measured) {
      // Default config = mobile: Moto G Power viewport, simulated slow 4G, 4x CPU slowdown.
      const result = await lighthouse(`${base}${path}`, {
        port: debugPort,
        logLevel: "error",
        output: "json",
        onlyCategories: [...CATEGORIES],
        ...(throttlingMethod ? { throttlingMethod } : {}),
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
      const lhr = result.lhr;
      const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
      const host =
        base !== origin ? "tenant host" : path.startsWith("/demo") ? "app host (demo)" : "app host (marketing)";
      rows.push({ label, host, path: path.replace(/[0-9a-f-]{36}$/, "{id}"), scores });
      const cls = lhr.audits["cumulative-layout-shift"]?.numericValue;
      console.log(
        `${label.padEnd(10)} ${host.padEnd(16)} CLS ${cls?.toFixed(3) ?? "?"}  ${scores.map((s, i) => `${LABELS[CATEGORIES[i] ?? "seo"]} ${s}`).join("  ")}`,
      );
      for (const c of CATEGORIES) {
        const cat = lhr.categories[c];
        if (!cat || (cat.score ?? 0) >= 1) continue;
        // Name what cost the points, so a regression says where to look.
        for (const ref of cat.auditRefs) {
          const a = lhr.audits[ref.id];
          if (ref.weight > 0 && a && a.score !== null && a.score < 1)
            console.log(`    ${c}: ${a.id} (${a.score}) ${a.displayValue ?? ""} ${a.explanation ?? ""}`.trimEnd());
        }
      }
    }

    if (only) return;
    const date = new Date().toISOString().slice(0, 10);
    const section = [
      "## Lighthouse",
      "",
      `Lighthouse ${lighthouseVersion()} with Debian chromium, mobile settings (emulated Moto G Power, simulated`,
      "slow 4G, 4x CPU slowdown), the production server on a fresh embedded database with the demo author.",
      "Each page is measured twice: as the read-only demo on the app host (`/demo/…`), and on the demo",
      "author's own tenant host (`demo.{SITES_DOMAIN}`), which is how every real author's site is served.",
      "The `/demo` copy's canonical URL is the tenant host, so search engines list the site once.",
      "The marketing pages are measured once each, on the app host.",
      `Measured ${date} by \`npm run bench:lighthouse\` on a shared 2-core machine (performance varies`,
      "between runs). Target: 100 in every category.",
      "",
      `| page | host | path | ${CATEGORIES.map((c) => LABELS[c]).join(" | ")} |`,
      `| --- | --- | --- | ${CATEGORIES.map(() => "---:").join(" | ")} |`,
      ...rows.map((r) => `| ${r.label} | ${r.host} | \`${r.path}\` | ${r.scores.join(" | ")} |`),
      "",
    ].join("\n");
    writeSection("Lighthouse", section);
    console.log("\nWritten to bench/RESULTS.md (section 'Lighthouse').");
  } finally {
    await stop(chromium);
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profileDir, { recursive: true, force: true });
  }
}

function lighthouseVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), "node_modules", "lighthouse", "package.json"), "utf8"));
    return String(pkg.version);
  } catch {
    return "";
  }
}

await main();
