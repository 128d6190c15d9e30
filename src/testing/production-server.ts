// The server as `npm start` runs it — the built bundle with the Node flags package.json's start
// script gives — so the tests and benchmarks that start real processes run what production runs.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let built = false;

/** Builds the server bundle when it is missing or older than its sources (once per process). */
export function buildServerBundle() {
  if (built) return;
  execFileSync(process.execPath, ["scripts/build-if-stale.mjs", "server"], { stdio: "inherit" });
  built = true;
}

/**
 * What `npm start` runs, from package.json's start script: its environment assignments (like
 * MALLOC_ARENA_MAX) and the arguments it gives `node` (its flags, then dist/server/main.js), with
 * the bundle built.
 */
export function productionCommand(): { env: Record<string, string>; args: string[] } {
  buildServerBundle();
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  const words = (pkg.scripts.start ?? "").split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  while (words[0]?.includes("=")) {
    const [name, value] = (words.shift() as string).split("=") as [string, string];
    env[name] = value;
  }
  if (words[0] === "exec") words.shift();
  if (words.shift() !== "node") throw new Error(`npm start is expected to run node, not: ${pkg.scripts.start}`);
  return { env, args: words };
}
