// The figures file the benchmarks and the fault suite write: bench/RESULTS.md, one `## ` section
// each, a run replacing its own section and keeping every other.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

/** Replaces the `## {heading}` section of bench/RESULTS.md, keeping every other section. */
export function writeSection(heading: string, section: string) {
  const file = "bench/RESULTS.md";
  let previous = "";
  try {
    previous = readFileSync(file, "utf8");
  } catch {
    /* first run */
  }
  const parts = previous.split(/^(?=## )/m);
  const title = parts[0]?.startsWith("## ") ? "# Benchmarks\n\n" : (parts.shift() ?? "# Benchmarks\n\n");
  const sections = parts.map((s) => `${s.trimEnd()}\n`);
  const i = sections.findIndex((s) => s.startsWith(`## ${heading}`));
  if (i >= 0) sections[i] = `${section.trimEnd()}\n`;
  else sections.push(`${section.trimEnd()}\n`);
  writeFileSync(file, `${title.trimEnd()}\n\n${sections.join("\n")}`);
  // The repository's formatter aligns Markdown tables; format now so lint stays green.
  spawnSync("npx", ["biome", "format", "--write", file], { stdio: "ignore" });
}
