// The embedded data directory's lock: one process at a time opens a data directory. The lock
// file names its holder's pid and start time, so a lock left by a process that is gone (or by a
// recycled pid) is taken over, and a live holder is named in the refusal.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

export class DataDirLockedError extends Error {}

/** Lock files this process holds: a lock naming our own pid is ours only if it is listed here. */
const heldLocks = new Set<string>();

type LockOwner = { pid: number; started: string | undefined };

/**
 * Which process start this is, as `{boot id}/{start time in clock ticks since boot}` (Linux).
 * A pid alone is not an identity: a container restart gives the server the pid it had before,
 * and after a reboot old pids belong to unrelated processes.
 */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 is the start time; the command name (field 2) may hold spaces, so count after it.
    const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return ticks ? `${boot}/${ticks}` : undefined;
  } catch {
    return undefined;
  }
}

function readOwner(lockPath: string): { text: string; owner: LockOwner | undefined } {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch {
    return { text: "", owner: undefined };
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; started?: unknown };
    if (Number.isInteger(parsed.pid) && (parsed.pid as number) > 0) {
      return {
        text,
        owner: {
          pid: parsed.pid as number,
          started: typeof parsed.started === "string" ? parsed.started : undefined,
        },
      };
    }
  } catch {
    // Locks written before the start time was recorded hold the bare pid.
    const pid = Number(text.trim());
    if (Number.isInteger(pid) && pid > 0) return { text, owner: { pid, started: undefined } };
  }
  return { text, owner: undefined };
}

/** Whether the process that wrote the lock is still running. */
function ownerRunning(owner: LockOwner, lockPath: string): boolean {
  if (owner.pid === process.pid) return heldLocks.has(lockPath);
  if (!isAlive(owner.pid)) return false;
  const now = processStart(owner.pid);
  // Without a recorded or readable start time (an older lock, no /proc), a live pid is trusted.
  if (owner.started === undefined || now === undefined) return true;
  return owner.started === now;
}

/**
 * PGlite allows one process per data directory: a second one would corrupt it. The lock is a
 * file naming its owner (pid and process start), created exclusively; a lock whose owner is no
 * longer running (even if its pid now belongs to another process) is stale.
 */
export function takeLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, "bookplate.lock");
  const mine = JSON.stringify({ pid: process.pid, started: processStart(process.pid) });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, mine);
      closeSync(fd);
      heldLocks.add(lockPath);
      return () => {
        heldLocks.delete(lockPath);
        if (readOwner(lockPath).text === mine) rmSync(lockPath, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const { text, owner } = readOwner(lockPath);
      if (owner && ownerRunning(owner, lockPath)) {
        throw new DataDirLockedError(
          `Another Bookplate process (pid ${owner.pid}) is already using the data directory ${dataDir}. ` +
            "Only one process may use an embedded database at a time: stop that process, " +
            "set DATA_DIR to another directory, or set DATABASE_URL to use PostgreSQL.",
        );
      }
      // Stale. Another process starting now may have replaced it meanwhile: leave that one be.
      if (readOwner(lockPath).text === text) rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of the running process that holds the data directory's lock, if one does. */
export function dataDirHolder(dataDir: string): number | undefined {
  const lockPath = join(dataDir, "bookplate.lock");
  const { owner } = readOwner(lockPath);
  return owner && ownerRunning(owner, lockPath) ? owner.pid : undefined;
}
