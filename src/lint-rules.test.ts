// The lint rules can fail: a throwaway tree with one planted violation of each import boundary
// (.dependency-cruiser.cjs) and a file name that is not kebab-case (biome.json) is checked with
// the project's own configuration, and every rule must report its violation.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
let dir: string;

/**
 * path → [source, the rules it must break]. A file with no rules is a target the plants import.
 * Every rule of .dependency-cruiser.cjs has at least one plant (checked below).
 */
const planted: Record<string, [string, string[]]> = {
  "src/shared/leaf.ts": [`import { x } from "../server/lib/thing.ts"; export const leaf = x;`, ["shared-is-a-leaf"]],
  "src/server/lib/thing.ts": [`export const x = 1;`, []],
  "src/db/below.ts": [`import { x } from "../server/lib/thing.ts"; export const below = x;`, ["db-below-server"]],
  "src/db/client.ts": [`export const client = 1;`, []],
  "src/app/app.ts": [`export const app = 1;`, []],
  "src/testing/helper.ts": [
    `import { app } from "../app/app.ts"; export const helper = app; // test support may start the app`,
    [],
  ],
  "src/server/modules/a/a.service.ts": [
    `import { app } from "../../../app/app.ts"; import { q } from "../b/b.queries.ts"; import { i } from "../b/internal.ts"; export const s = app + q + i; export type S = number;`,
    ["nothing-imports-the-assembly", "services-not-queries-across-modules", "modules-meet-at-their-services"],
  ],
  "src/server/modules/a/a.test.ts": [
    `import { app } from "../../../app/app.ts"; import { helper } from "../../../testing/helper.ts"; export const t = app + helper; // tests may start the app`,
    [],
  ],
  "src/server/modules/b/b.queries.ts": [`export const q = 1;`, []],
  "src/server/modules/b/internal.ts": [`export const i = 1;`, []],
  "src/server/modules/b/b.routes.ts": [
    `import { client } from "../../../db/client.ts"; import { q } from "./b.queries.ts"; export const r = client + q;`,
    ["routes-do-not-touch-the-database", "routes-call-services-not-queries"],
  ],
  "src/server/modules/c/c.service.ts": [
    `import type { P } from "../../../sites/types.ts"; import { j } from "../../jobs/j.job.ts"; export const c: P = j;`,
    ["server-below-renderers", "jobs-above-modules"],
  ],
  "src/server/jobs/j.job.ts": [
    `import { m } from "../../marketing/m.ts"; export const j = m;`,
    ["server-below-renderers"],
  ],
  "src/server/http/guard.ts": [
    `import { s } from "../modules/a/a.service.ts"; export const g = s;`,
    ["http-and-lib-below-modules"],
  ],
  "src/server/http/typed.ts": [
    `import type { S } from "../modules/a/a.service.ts"; export type T = { s: S }; // type-only too`,
    ["http-and-lib-below-modules"],
  ],
  "src/server/http/errors.ts": [`export class HttpError extends Error {}`, []],
  "src/server/lib/throws.ts": [
    `import { HttpError } from "../http/errors.ts"; export const t = new HttpError();`,
    ["lib-below-http"],
  ],
  "src/server/lib/uses-testing.ts": [
    `import { helper } from "../../testing/helper.ts"; export const u = helper;`,
    ["production-never-imports-test-support"],
  ],
  "src/server/lib/site-types.ts": [
    `import type { P } from "../../sites/types.ts"; export type L = P; // type-only too`,
    ["server-below-renderers"],
  ],
  "src/server/lib/screen.ts": [
    `import type { A } from "../../web/lib/ring-a.ts"; export type S = A; // type-only too`,
    ["server-never-imports-web"],
  ],
  "src/server/http/ctx.ts": [`import type { Sess } from "./sess.ts"; export type Ctx = { s?: Sess };`, ["no-circular"]],
  "src/server/http/sess.ts": [
    `import type { Ctx } from "./ctx.ts"; export type Sess = { c?: Ctx }; // a type-only circle (reported once, at ctx.ts)`,
    [],
  ],
  "src/sites/page.ts": [
    `import { q } from "../server/modules/b/b.queries.ts"; export const p = q;`,
    ["sites-use-services"],
  ],
  "src/sites/types.ts": [`export type P = number;`, []],
  "src/sites/uses-http.ts": [
    `import type { H } from "../server/http/vars.ts"; export type U = H; // type-only too`,
    ["sites-not-through-http"],
  ],
  "src/sites/uses-marketing.ts": [
    `import { m } from "../marketing/m.ts"; export const u = m;`,
    ["sites-below-marketing"],
  ],
  "src/marketing/m.ts": [`export const m = 1;`, []],
  "src/server/http/vars.ts": [`export type H = string;`, []],
  "src/web/features/one/one.ts": [
    `import { two } from "../two/two.ts"; import { client } from "../../../db/client.ts"; export const one = two + client;`,
    ["features-are-independent", "web-is-client-only"],
  ],
  "src/web/features/two/two.ts": [
    `import { shell } from "../../app/shell.ts"; export const two = shell;`,
    ["features-below-the-app-shell"],
  ],
  "src/web/app/shell.ts": [`export const shell = 2;`, []],
  "src/web/lib/ring-a.ts": [
    `import { b } from "./ring-b.ts"; export type A = number; export const a = () => b;`,
    ["no-circular"],
  ],
  "src/web/lib/ring-b.ts": [
    `import { a } from "./ring-a.ts"; export const b = () => a; // reported once, at ring-a.ts`,
    [],
  ],
  "src/web/lib/BadName.ts": [`export const bad = 1; // biome: useFilenamingConvention`, []],
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "bookplate-lint-"));
  for (const [path, [source]] of Object.entries(planted)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${source}\n`);
  }
  for (const f of [".dependency-cruiser.cjs", "biome.json", "tsconfig.json"]) cpSync(join(root, f), join(dir, f));
  writeFileSync(join(dir, "package.json"), `{"type":"module"}\n`);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Violation = { from: string; rule: { name: string } };

async function violations(): Promise<Violation[]> {
  const out = await run(bin("depcruise"), ["src", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
    cwd: dir,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  return (JSON.parse(out.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe("lint rules", () => {
  it("every plant breaks the rules it names and no other; every rule has a plant", async () => {
    const found = await violations();
    const byFile = (path: string) => [...new Set(found.filter((v) => v.from === path).map((v) => v.rule.name))].sort();
    for (const [path, [, rules]] of Object.entries(planted)) {
      expect({ path, rules: byFile(path) }).toEqual({ path, rules: [...rules].sort() });
    }
    const config = (await import(join(root, ".dependency-cruiser.cjs"))).default as { forbidden: { name: string }[] };
    const planted_ = new Set(Object.values(planted).flatMap(([, rules]) => rules));
    expect(config.forbidden.map((r) => r.name).filter((name) => !planted_.has(name))).toEqual([]);
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

  it("no service and nothing in server/lib names an HTTP status: they refuse with our codes (ADR 058)", () => {
    const files = readdirSync(join(root, "src/server"), { recursive: true, encoding: "utf8" }).filter(
      (f) => (f.startsWith("lib/") || f.endsWith(".service.ts")) && /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f),
    );
    expect(files.length).toBeGreaterThan(40);
    const found = files.flatMap((f) =>
      readFileSync(join(root, "src/server", f), "utf8")
        .split("\n")
        .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
        .filter((line) =>
          /\bHttpError\b|\bstatus(Code)?\s*[:=]{1,3}\s*[1-5]\d\d\b|\b(\d+ \| )*[45]\d\d \| [45]\d\d\b/.test(line),
        )
        .map((line) => `${f}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
