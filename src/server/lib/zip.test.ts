import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unzip, zip } from "./zip.ts";

describe("zip", () => {
  const entries = [
    {
      name: "bookplate/data.json",
      data: Buffer.from(JSON.stringify({ title: "Café crème", n: [1, 2, 3] }).repeat(50)),
    },
    { name: "bookplate/images/covers/a-200.webp", data: new Uint8Array([82, 73, 70, 70, 0, 1, 2, 3, 255]) },
    { name: "bookplate/empty.txt", data: new Uint8Array(0) },
  ];

  it("round-trips its entries, deflating text and storing images", () => {
    const archive = zip(entries);
    const back = unzip(archive);
    expect([...back.keys()]).toEqual(entries.map((e) => e.name));
    for (const e of entries) expect(back.get(e.name)?.equals(Buffer.from(e.data))).toBe(true);
    // The JSON repeats itself: deflated, the archive is much smaller than its contents.
    expect(archive.length).toBeLessThan(entries[0]?.data.length ?? 0);
  });

  // Debian's unzip (CI installs it): an independent reader, so the writer is not only checked by its twin.
  it.skipIf(!existsSync("/usr/bin/unzip"))("writes archives the system's unzip reads and tests clean", () => {
    const dir = mkdtempSync(join(tmpdir(), "zip-test-"));
    try {
      const file = join(dir, "a.zip");
      writeFileSync(file, zip(entries));
      const tested = execFileSync("unzip", ["-t", file], { encoding: "utf8" });
      expect(tested).toContain("No errors detected");
      expect(execFileSync("unzip", ["-p", file, "bookplate/data.json"], { encoding: "utf8" })).toContain("Café crème");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses names that would leave the folder it is unpacked into", () => {
    expect(() => zip([{ name: "../evil", data: new Uint8Array(1) }])).toThrow("Bad name");
    expect(() => zip([{ name: "/etc/x", data: new Uint8Array(1) }])).toThrow("Bad name");
  });
});
