// The lint rules can fail: a throwaway tree with one planted violation of each import boundary
// (.dependency-cruiser.cjs) and a file name that is not kebab-case (biome.json) is checked with
// the project's own configuration, and every rule must report its violation.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
let dir: string;

/** path → source; each names the rule it breaks. */
const planted: Record<string, string> = {
  "src/shared/leaf.ts": `import { x } from "../server/lib/thing.ts"; export const leaf = x; // shared-is-a-leaf`,
  "src/server/lib/thing.ts": `export const x = 1;`,
  "src/db/below.ts": `import { x } from "../server/lib/thing.ts"; export const below = x; // db-below-server`,
  "src/app/app.ts": `export const app = 1;`,
  "src/server/modules/a/a.service.ts": `import { app } from "../../../app/app.ts"; import { q } from "../b/b.queries.ts"; export const s = app + q; // modules-below-app, services-not-queries-across-modules`,
  "src/server/modules/b/b.queries.ts": `export const q = 1;`,
  "src/server/modules/b/b.routes.ts": `import { client } from "../../../db/client.ts"; export const r = client; // routes-do-not-touch-the-database`,
  "src/db/client.ts": `export const client = 1;`,
  "src/server/http/guard.ts": `import { s } from "../modules/a/a.service.ts"; export const g = s; // http-and-lib-below-modules`,
  "src/sites/page.ts": `import { q } from "../server/modules/b/b.queries.ts"; export const p = q; // sites-use-services`,
  "src/server/lib/site-types.ts": `import type { P } from "../../sites/types.ts"; export type L = P; // http-and-lib-never-import-sites (type-only too)`,
  "src/sites/types.ts": `export type P = number;`,
  "src/sites/uses-http.ts": `import type { H } from "../server/http/vars.ts"; export type U = H; // sites-not-through-http (type-only too)`,
  "src/server/http/vars.ts": `export type H = string;`,
  "src/web/features/one/one.ts": `import { two } from "../two/two.ts"; import { client } from "../../../db/client.ts"; export const one = two + client; // features-are-independent, web-is-client-only`,
  "src/web/features/two/two.ts": `export const two = 2;`,
  "src/web/lib/ring-a.ts": `import { b } from "./ring-b.ts"; export const a = () => b; // no-circular`,
  "src/web/lib/ring-b.ts": `import { a } from "./ring-a.ts"; export const b = () => a;`,
  "src/web/lib/BadName.ts": `export const bad = 1; // biome: useFilenamingConvention`,
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "bookplate-lint-"));
  for (const [path, source] of Object.entries(planted)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${source}\n`);
  }
  for (const f of [".dependency-cruiser.cjs", "biome.json", "tsconfig.json"]) cpSync(join(root, f), join(dir, f));
  writeFileSync(join(dir, "package.json"), `{"type":"module"}\n`);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function violatedRules(): Promise<Set<string>> {
  const out = await run(bin("depcruise"), ["src", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
    cwd: dir,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  const result = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string } }[] } };
  return new Set(result.summary.violations.map((v) => v.rule.name));
}

describe("lint rules", () => {
  it("every import boundary reports its planted violation", async () => {
    const rules = await violatedRules();
    expect([...rules].sort()).toEqual(
      [
        "db-below-server",
        "features-are-independent",
        "http-and-lib-below-modules",
        "http-and-lib-never-import-sites",
        "modules-below-app",
        "no-circular",
        "routes-do-not-touch-the-database",
        "services-not-queries-across-modules",
        "shared-is-a-leaf",
        "sites-not-through-http",
        "sites-use-services",
        "web-is-client-only",
      ].sort(),
    );
  });

  it("a file name that is not kebab-case fails Biome", async () => {
    const out = await run(bin("biome"), ["lint", "--max-diagnostics=50", "src/web/lib"], { cwd: dir }).then(
      () => ({ code: 0, text: "" }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({
        code: err.code ?? 1,
        text: `${err.stdout ?? ""}${err.stderr ?? ""}`,
      }),
    );
    expect(out.code).not.toBe(0);
    expect(out.text).toContain("useFilenamingConvention");
    expect(out.text).toContain("BadName.ts");
  });
});
