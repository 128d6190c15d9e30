// Runs once before the browser specs: the server serves the built SPA from dist/web, so build
// it when it is missing or older than its sources. Also says loudly when there is no browser.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { CHROMIUM_PATH } from "./chromium.ts";

const OUT = "dist/web/index.html";
const SOURCES = ["src/web", "src/shared", "src/marketing", "vite.config.ts"];

function newest(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const e of readdirSync(path)) t = Math.max(t, newest(join(path, e)));
  return t;
}

export default function setup() {
  if (!existsSync(CHROMIUM_PATH)) {
    const msg = `Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium): the browser specs cannot run.`;
    if (process.env.CI === "true") throw new Error(msg);
    console.warn(
      `\n${"!".repeat(80)}\n!! ${msg}\n!! Skipping every e2e spec. Set CI=true to make this a failure.\n${"!".repeat(80)}\n`,
    );
    return;
  }
  const stale = !existsSync(OUT) || SOURCES.filter(existsSync).some((p) => newest(p) > statSync(OUT).mtimeMs);
  if (stale) {
    console.log("e2e: building the web app (dist/web is missing or older than its sources)...");
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build: test
    // what ships.
    execSync("npx vite build --logLevel warn", { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  }
}
