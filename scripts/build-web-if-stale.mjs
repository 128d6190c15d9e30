// `npm start` builds the web app when it is missing or older than its sources, so a fresh
// clone needs only `npm install` and `npm start`.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const out = "dist/web/index.html";
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
// src/marketing: its classes are in the marketing stylesheet the build makes.
const sources = ["src/web", "src/shared", "src/marketing"].filter(existsSync);
const stale = !existsSync(out) || sources.some((d) => newest(d) > statSync(out).mtimeMs);
if (stale) {
  console.log("Building the web app (first start, or its sources changed)…");
  // Always the production bundle, whatever NODE_ENV the caller runs with (tests set "test").
  execSync("npx vite build --logLevel warn", { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}
