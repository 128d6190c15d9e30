// Adds up Vitest JSON reports and prints the line CI reads: "N passed, N failed".
// Beside each report X.json, CI may leave X.exit with Vitest's exit code: a suite that exited
// non-zero with no failed test (an unhandled error, which the JSON report leaves out) counts
// as one failure, so the line never reads "0 failed" for a run that failed.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
// Each failed test, named with its file and the first lines of its failure, printed before the
// totals: the end of a long CI log is often all that is kept of it.
const failures = [];
const firstLines = (text, n) =>
  String(text ?? "")
    .split("\n")
    .slice(0, n)
    .join("\n      ");
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    console.error(`missing or unreadable report: ${file} (that suite did not finish)`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  const exitFile = file.replace(/\.json$/, ".exit");
  const exitCode = existsSync(exitFile) ? Number(readFileSync(exitFile, "utf8").trim()) : 0;
  if (exitCode !== 0 && !(report.numFailedTests > 0)) {
    console.error(`${file}: Vitest exited with ${exitCode} outside any test (see "Unhandled Errors" above)`);
    failed += 1;
  }
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that failed to load counts as a failure even though it ran no test.
  for (const suite of report.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const test of failedTests) {
      failures.push(`${suite.name} > ${test.fullName}\n      ${firstLines(test.failureMessages?.[0], 6)}`);
    }
    if (suite.status === "failed" && failedTests.length === 0) {
      failed += 1;
      failures.push(`${suite.name} (did not load)\n      ${firstLines(suite.message, 6)}`);
    }
  }
}
// Skipped tests (PostgreSQL-only ones on the embedded run) are reported apart: the last line is
// exactly "N passed, N failed".
if (failures.length) console.log(`failed:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
if (skipped) console.log(`(${skipped} skipped)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
