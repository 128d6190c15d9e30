// The backup archive format: what goes in comes out, names of any length, files of any size
// (including empty and exact multiples of a block), and a damaged file is an ArchiveError.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ArchiveError, readTarGz, tarGzWriter } from "./tar.ts";

const dir = mkdtempSync(join(tmpdir(), "bookplate-tar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(path: string) {
  const out = new Map<string, Buffer>();
  await readTarGz(path, async (e, data) => {
    const parts: Buffer[] = [];
    for await (const c of data) parts.push(c);
    out.set(e.name, Buffer.concat(parts));
  });
  return out;
}

describe("tar.gz", () => {
  const long = `uploads/${"deep/".repeat(30)}${"n".repeat(120)}-640.webp`;
  const entries = new Map<string, Buffer>([
    ["manifest.json", Buffer.from('{"a":1}\n')],
    ["empty", Buffer.alloc(0)],
    ["exact-block", randomBytes(1024)],
    ["odd", randomBytes(70_001)],
    [long, randomBytes(513)],
  ]);

  it("gives back every entry byte for byte, long names included, readable by GNU tar too", async () => {
    const path = join(dir, "a.tar.gz");
    const onDisk = join(dir, "file.bin");
    writeFileSync(onDisk, randomBytes(200_000));
    const w = tarGzWriter(path);
    for (const [name, data] of entries) await w.addBytes(name, data);
    await w.addFile("from-disk.bin", onDisk);
    await w.addStream(
      "streamed",
      5,
      (async function* () {
        yield new Uint8Array([1, 2]);
        yield new Uint8Array([3, 4, 5]);
      })(),
    );
    await w.finish();
    const back = await readAll(path);
    for (const [name, data] of entries) expect(back.get(name)?.equals(data), name).toBe(true);
    expect(back.get("from-disk.bin")?.equals(readFileSync(onDisk))).toBe(true);
    expect([...(back.get("streamed") ?? [])]).toEqual([1, 2, 3, 4, 5]);
    const listed = execFileSync("tar", ["-tzf", path], { encoding: "utf8" }).trim().split("\n");
    expect(listed).toEqual([...entries.keys(), "from-disk.bin", "streamed"]);
  });

  it("a handler that stops early does not throw the next entry off", async () => {
    const path = join(dir, "b.tar.gz");
    const w = tarGzWriter(path);
    await w.addBytes("big", randomBytes(300_000));
    await w.addBytes("after", Buffer.from("still here"));
    await w.finish();
    const seen: string[] = [];
    await readTarGz(path, async (e, data) => {
      seen.push(e.name);
      if (e.name === "after") {
        for await (const c of data) expect(c.toString()).toBe("still here");
        return;
      }
      for await (const _ of data) break;
    });
    expect(seen).toEqual(["big", "after"]);
  });

  it("refuses what is not a whole tar.gz", async () => {
    const good = join(dir, "c.tar.gz");
    const w = tarGzWriter(good);
    await w.addBytes("x", randomBytes(100_000));
    await w.finish();
    const bytes = readFileSync(good);
    const cases = {
      "not gzip": Buffer.from("hello, not an archive"),
      "cut off": bytes.subarray(0, Math.floor(bytes.length / 2)),
    };
    for (const [what, content] of Object.entries(cases)) {
      const path = join(dir, `${what}.tar.gz`);
      writeFileSync(path, content);
      await expect(readAll(path), what).rejects.toBeInstanceOf(ArchiveError);
    }
    const bad = tarGzWriter(join(dir, "d.tar.gz"));
    await expect(bad.addBytes("../escape", Buffer.alloc(1))).rejects.toThrow(/Bad archive entry name/);
    await bad.abort();
  });
});
