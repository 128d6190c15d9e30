import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Database, emptyCluster, openDatabase } from "./client.ts";
import { DataDirLockedError } from "./data-dir-lock.ts";

const baseUrl = process.env.DATABASE_URL;

// Only PostgreSQL has connections a server can drop; PGlite runs in the process.
describe.runIf(baseUrl)("PostgreSQL connection pool", () => {
  let admin: pg.Client;
  let name: string;
  let url: string;

  beforeEach(async () => {
    name = `bookplate_pool_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(baseUrl as string);
    u.pathname = `/${name}`;
    url = u.toString();
  });

  afterEach(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  /** What a PostgreSQL restart, a failover or `pg_terminate_backend` does to our connections. */
  const terminate = (filter = "true") =>
    admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and ${filter}`,
      [name],
    );

  it("survives the server dropping its idle connections, and says so", async () => {
    const lost: Error[] = [];
    const database = await openDatabase({
      databaseUrl: url,
      dataDir: "unused",
      onConnectionError: (err) => lost.push(err),
    });
    try {
      await database.ping();
      await terminate();
      await expect.poll(() => lost.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect((lost[0] as Error & { code?: string }).code).toBe("57P01");
      // The pool replaces the dropped connection on its next use.
      await database.ping();
    } finally {
      await database.close();
    }
  });

  it("survives connections dropped in the middle of transactions: those fail, later ones work", async () => {
    const database = await openDatabase({ databaseUrl: url, dataDir: "unused", onConnectionError: () => {} });
    // An 'error' event nobody listens to would end the process; here it lands in this list.
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      await database.db.execute("create table writes (id serial primary key, n int not null)");
      let ok = 0;
      let failed = 0;
      let running = true;
      const pause = () => new Promise((r) => setTimeout(r, 2));
      // Each transaction holds its connection across awaits, like a request that writes twice.
      const worker = async () => {
        while (running) {
          try {
            await database.db.transaction(async (tx) => {
              await tx.execute("insert into writes (n) values (1)");
              await pause();
              await tx.execute("insert into writes (n) values (2)");
              await pause();
            });
            ok++;
          } catch {
            failed++;
          }
        }
      };
      const workers = Array.from({ length: 6 }, worker);
      for (let round = 0; round < 5; round++) {
        await new Promise((r) => setTimeout(r, 150));
        await terminate();
      }
      await new Promise((r) => setTimeout(r, 300));
      running = false;
      // A transaction whose connection leaked out of the pool would wait here forever.
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<"stuck">((r) => {
        timer = setTimeout(() => r("stuck"), 10_000);
      });
      expect(await Promise.race([Promise.all(workers).then(() => "done"), stuck])).toBe("done");
      clearTimeout(timer);
      expect(uncaught).toEqual([]);
      expect(failed).toBeGreaterThan(0);
      expect(ok).toBeGreaterThan(0);
      // After the storm: the next writes all work.
      for (let i = 0; i < 5; i++) {
        await database.db.transaction(async (tx) => {
          await tx.execute("insert into writes (n) values (3)");
        });
      }
      const result = await database.db.execute("select count(*)::int as c from writes where n = 3");
      expect((result as unknown as { rows: { c: number }[] }).rows[0]?.c).toBe(5);
    } finally {
      process.off("uncaughtException", onUncaught);
      await database.close();
    }
  });

  it("re-establishes a dropped LISTEN connection by itself, and says notices may have been missed", async () => {
    const database: Database = await openDatabase({ databaseUrl: url, dataDir: "unused", onConnectionError: () => {} });
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    const heard: string[] = [];
    let reconnects = 0;
    const told: string[] = [];
    // NOTIFY reaches listeners of the same database only.
    const notifier = new pg.Client({ connectionString: url });
    await notifier.connect();
    try {
      const stop = await database.listen("fault_channel", (p) => heard.push(p), {
        onReconnect: () => {
          reconnects++;
          told.push("reconnect");
        },
        onDown: () => told.push("down"),
      });
      await notifier.query("select pg_notify('fault_channel', 'before')");
      await expect.poll(() => heard, { timeout: 5000 }).toContain("before");
      await terminate("query ilike 'listen%'");
      // Sent while nobody listens: lost, which is why onReconnect exists.
      await notifier.query("select pg_notify('fault_channel', 'missed')");
      // Keep notifying until one gets through: the listener comes back with a backoff.
      await expect
        .poll(
          async () => {
            await notifier.query("select pg_notify('fault_channel', 'after')");
            return heard.includes("after");
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBe(true);
      expect(reconnects).toBe(1);
      // Told it was down (before anything was missed being noticed), then that it is back.
      expect(told).toEqual(["down", "reconnect"]);
      expect(uncaught).toEqual([]);
      await stop();
    } finally {
      process.off("uncaughtException", onUncaught);
      await notifier.end();
      await database.close();
    }
  });

  it("listens on every channel through one connection, which comes back listening on all of them", async () => {
    const database: Database = await openDatabase({ databaseUrl: url, dataDir: "unused", onConnectionError: () => {} });
    const notifier = new pg.Client({ connectionString: url });
    await notifier.connect();
    const heard: string[] = [];
    const told: string[] = [];
    const listeningBackends = async () =>
      (
        await admin.query(
          "select count(*)::int as n from pg_stat_activity where datname = $1 and query ilike any(array['listen%', 'unlisten%'])",
          [name],
        )
      ).rows[0].n;
    const notify = (channel: string, payload: string) => notifier.query("select pg_notify($1, $2)", [channel, payload]);
    try {
      const on = (channel: string) =>
        database.listen(channel, (p) => heard.push(`${channel}:${p}`), {
          onDown: () => told.push(`${channel} down`),
          onReconnect: () => told.push(`${channel} back`),
        });
      const stopA = await on("chan_a");
      const stopB = await on("chan_b");
      const stopB2 = await database.listen("chan_b", (p) => heard.push(`chan_b again:${p}`));
      expect(await listeningBackends()).toBe(1);
      await notify("chan_a", "1");
      await notify("chan_b", "2");
      await expect.poll(() => heard.sort(), { timeout: 5000 }).toEqual(["chan_a:1", "chan_b again:2", "chan_b:2"]);

      // One of a channel's two listeners leaves: the other still hears it.
      await stopB2();
      await notify("chan_b", "3");
      await expect.poll(() => heard, { timeout: 5000 }).toContain("chan_b:3");
      expect(heard).not.toContain("chan_b again:3");

      // Dropped: every subscription is told, and it comes back listening on both channels.
      await terminate("query ilike any(array['listen%', 'unlisten%'])");
      await expect
        .poll(() => told.filter((t) => t.endsWith("back")).sort(), { timeout: 10_000 })
        .toEqual(["chan_a back", "chan_b back"]);
      expect(told.slice(0, 2).sort()).toEqual(["chan_a down", "chan_b down"]);
      await notify("chan_a", "4");
      await notify("chan_b", "5");
      await expect.poll(() => heard, { timeout: 5000 }).toEqual(expect.arrayContaining(["chan_a:4", "chan_b:5"]));
      expect(await listeningBackends()).toBe(1);

      // The channel's last listener leaves: nothing more of it; the last of all closes the connection.
      await stopA();
      await notify("chan_a", "6");
      await notify("chan_b", "7");
      await expect.poll(() => heard, { timeout: 5000 }).toContain("chan_b:7");
      expect(heard).not.toContain("chan_a:6");
      await stopB();
      await expect.poll(listeningBackends, { timeout: 5000 }).toBe(0);
    } finally {
      await notifier.end();
      await database.close();
    }
  });
});

describe.runIf(baseUrl)("a notice this process's own statement sends (ownWritesAtOnce)", { timeout: 60_000 }, () => {
  it("is heard before the statement's promise settles, in and out of a transaction, with no pooled connection listening", async () => {
    const channel = `own_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const name = `bookplate_own_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(baseUrl as string);
    u.pathname = `/${name}`;
    // The connection string's own options are kept beside the setting the pool makes.
    const withOptions = new URL(u);
    withOptions.searchParams.set("options", "-c statement_timeout=12345");
    const database: Database = await openDatabase({
      databaseUrl: withOptions.toString(),
      dataDir: "unused",
      hearOwnNotices: [channel],
    });
    const outsider = new pg.Client({ connectionString: u.toString() });
    const heard: string[] = [];
    const others: string[] = [];
    try {
      await database.migrate(); // notify_own (migration 0034)
      const stop = await database.listen(channel, (p) => heard.push(p), { ownWritesAtOnce: true });
      const stopOther = await database.listen(channel, (p) => others.push(p));
      const notify = (payload: string) => `select notify_own('${channel}', '${payload}')`;
      const times = (payload: string) => heard.filter((p) => p === payload).length;
      // Ten at once: each on a connection of its own, so every pooled connection passes it on.
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          await database.db.execute(notify(`plain ${i}`));
          expect(times(`plain ${i}`)).toBeGreaterThanOrEqual(2);
        }),
      );
      const timeout = await database.db.execute("select current_setting('statement_timeout') as t");
      expect((timeout as unknown as { rows: { t: string }[] }).rows[0]?.t).toBe("12345ms");
      // No pooled connection listens: a NOTIFY from anywhere wakes only the listening ones.
      const listening = await database.db.execute("select count(*)::int as n from pg_listening_channels()");
      expect((listening as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
      await database.db.transaction(async (tx) => {
        await tx.execute(notify("in a transaction"));
        // At once, before anything this process reads can see the change (not yet committed,
        // so not from the listening connection)…
        expect(times("in a transaction")).toBe(1);
      });
      // …and again once committed, before the transaction's promise settles.
      expect(times("in a transaction")).toBeGreaterThanOrEqual(2);
      // The NOTICE alone (no NOTIFY, so nothing else delivers it): exactly once when raised and
      // once when its connection is handed back, in a transaction and out of one.
      const raise = (payload: string) =>
        `do $$ begin raise notice using message = '${channel}', detail = '${payload}', errcode = 'BPOWN'; end $$`;
      await database.db.transaction(async (tx) => {
        await tx.execute(raise("raised in a transaction"));
        expect(times("raised in a transaction")).toBe(1);
      });
      expect(times("raised in a transaction")).toBe(2);
      await database.db.execute(raise("raised alone"));
      expect(times("raised alone")).toBe(2);
      // Another channel's, or another code's, is not passed on.
      await database.db.execute(
        `do $$ begin raise notice using message = 'not_named', detail = 'x', errcode = 'BPOWN'; raise notice using message = '${channel}', detail = 'other code'; end $$`,
      );
      expect(heard).not.toContain("x");
      expect(heard).not.toContain("other code");
      // Every notice so far also reached the listening connection (the two raised alone did not).
      await expect.poll(() => others.length, { timeout: 5000 }).toBe(11);
      // A connection that did not ask (psql, another tool) is sent no NOTICE; every process hears it.
      const notices: string[] = [];
      outsider.on("notice", (n) => notices.push(n.message ?? ""));
      await outsider.connect();
      await outsider.query(notify("from outside"));
      await expect.poll(() => others, { timeout: 5000 }).toContain("from outside");
      expect(notices).toEqual([]);
      await stop();
      await database.db.execute(notify("after stop"));
      await expect.poll(() => others, { timeout: 5000 }).toContain("after stop");
      expect(heard).not.toContain("after stop");
      await stopOther();
      await expect(database.listen("not_named", () => {}, { ownWritesAtOnce: true })).rejects.toThrow(/hearOwnNotices/);
    } finally {
      await outsider.end().catch(() => {});
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

// A container restart gives the server the same pid it had before, and a host restart hands old
// pids to unrelated processes: a lock file naming a live pid proves nothing by itself.
// Each open creates an embedded database on disk: seconds each on a loaded machine.
describe("the embedded data directory lock", { timeout: 90_000 }, () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "bookplate-lock-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const c of children) c.kill("SIGKILL");
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  /** A live process that is not Bookplate. */
  const unrelatedProcess = async () => {
    const child = spawn("sleep", ["60"], { stdio: "ignore" });
    children.push(child);
    await new Promise((r) => child.once("spawn", r));
    return child.pid as number;
  };
  const startTicks = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[19];
  const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();

  it("starts over a lock left by an earlier life of our own pid", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, "bookplate.lock"), String(process.pid));
    const database = await openDatabase({ dataDir: dir });
    await database.ping();
    await database.close();
    expect(existsSync(join(dir, "bookplate.lock"))).toBe(false);
  });

  it("starts over a lock naming a live unrelated process that started after the lock was taken", async () => {
    const dir = freshDir();
    const pid = await unrelatedProcess();
    // What the owner recorded: the same pid, but another process start (or another boot).
    writeFileSync(join(dir, "bookplate.lock"), JSON.stringify({ pid, started: `${bootId()}/1` }));
    const database = await openDatabase({ dataDir: dir });
    await database.close();
  });

  it.runIf(existsSync("/proc/self/stat"))("refuses a lock whose recorded owner is still running", async () => {
    const dir = freshDir();
    const pid = await unrelatedProcess();
    writeFileSync(join(dir, "bookplate.lock"), JSON.stringify({ pid, started: `${bootId()}/${startTicks(pid)}` }));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/already using the data directory/);
    expect(existsSync(join(dir, "bookplate.lock"))).toBe(true);
  });

  it("refuses a second open of the same directory in the same process", async () => {
    const dir = freshDir();
    const database = await openDatabase({ dataDir: dir });
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
    } finally {
      await database.close();
    }
    // …and once closed, it opens again.
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });
});

describe("a new embedded data directory (ADR 064)", () => {
  it("starts from the build's template only when it holds no database yet", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bookplate-template-"));
    try {
      const template = join(dir, "template.tar.gz");
      const pgDir = join(dir, "pg");
      expect(emptyCluster(pgDir, template)).toBeUndefined(); // no template: PGlite runs initdb
      writeFileSync(template, "tar bytes");
      expect(await emptyCluster(pgDir, template)?.text()).toBe("tar bytes");
      mkdirSync(pgDir);
      writeFileSync(join(pgDir, "PG_VERSION"), "17\n");
      expect(emptyCluster(pgDir, template)).toBeUndefined(); // an existing database is never replaced
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
