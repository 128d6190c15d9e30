// A PostgreSQL cluster of the suite's own, from Debian's binaries, so that it can be restarted
// without disturbing the machine's shared PostgreSQL (other test runs use that one).
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export type PrivatePostgres = {
  url: string;
  /** Stops it the hard way (as a crash or a power cut would) and starts it again. */
  restart(): void;
  stop(): void;
};

function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version ? join(root, version, "bin") : undefined;
}

/** A started private cluster, or the reason there cannot be one here. */
export function startPrivatePostgres(port: number): PrivatePostgres | { skipped: string } {
  const bin = binDir();
  if (!bin) return { skipped: "no PostgreSQL server binaries under /usr/lib/postgresql" };
  // initdb and pg_ctl refuse to run as root: run them as the postgres user.
  const asRoot = userInfo().uid === 0;
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : cmd, asRoot ? ["-u", "postgres", "--", cmd, ...args] : args, {
      stdio: "pipe",
      timeout: 60_000,
    });
  const dir = mkdtempSync(join(tmpdir(), "bookplate-faults-pg-"));
  try {
    if (asRoot) {
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
      chownSync(dir, uid, gid);
    }
    const data = join(dir, "data");
    run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`;
    const ctl = (...args: string[]) => run(join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "log"), "-w", ...args]);
    ctl("-o", options, "start");
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      restart: () => {
        ctl("-m", "immediate", "stop");
        ctl("-o", options, "start");
      },
      stop: () => {
        try {
          ctl("-m", "immediate", "stop");
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as Error & { stderr?: Buffer };
    return { skipped: `could not start a private PostgreSQL: ${e.stderr?.toString().trim() || e.message}` };
  }
}
