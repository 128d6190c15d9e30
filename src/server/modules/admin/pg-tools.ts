// PostgreSQL's own client programs for backups (ADR 046): pg_dump must be at least as new as
// the server it reads, and pg_restore at least as new as the pg_dump that wrote the file. Debian
// installs each major version under /usr/lib/postgresql/<major>/bin; PATH is tried last.
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

export class PgToolMissing extends Error {}

async function majorOf(binary: string): Promise<number | undefined> {
  try {
    const { stdout } = await run(binary, ["--version"]);
    const m = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The newest `tool` installed whose major version is at least `minMajor`. */
export async function findPgTool(tool: "pg_dump" | "pg_restore", minMajor: number): Promise<string> {
  const candidates: string[] = [];
  try {
    const versions = (await readdir("/usr/lib/postgresql")).filter((v) => /^\d+$/.test(v));
    versions.sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin/${tool}`);
  } catch {
    // Not a Debian layout.
  }
  candidates.push(tool);
  let found: { path: string; major: number } | undefined;
  for (const path of candidates) {
    const major = await majorOf(path);
    if (major === undefined) continue;
    if (major >= minMajor) return path;
    found ??= { path, major };
  }
  if (found) {
    throw new PgToolMissing(
      `${tool} ${found.major} is installed but this database needs ${tool} ${minMajor} or newer. ` +
        `Install PostgreSQL ${minMajor}'s client programs (Debian: postgresql-client-${minMajor}).`,
    );
  }
  throw new PgToolMissing(
    `${tool} was not found. Install PostgreSQL ${minMajor}'s client programs ` +
      `(Debian: apt-get install postgresql-client-${minMajor}; or put ${tool} on PATH).`,
  );
}

/**
 * The connection for a client program: the URL without its password (which would show in the
 * process list), the password in PGPASSWORD.
 */
export function pgConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a client program; a failure carries its last lines of stderr. */
export async function runPgTool(binary: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(binary, args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? "").trim();
    const tail = stderr.split("\n").slice(-5).join("\n");
    throw new Error(`${binary.split("/").pop()} failed: ${tail || (err as Error).message}`);
  }
}
