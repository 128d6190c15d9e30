// A Bookplate server as its own process, started the way `npm start` starts it, so that it can
// be SIGKILLed, restarted and measured from outside.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { productionCommand } from "../production-server.ts";

export type ServerProcess = {
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or signal) when the process ends, for whatever reason. */
  exited: Promise<string>;
  /** Everything it printed so far. */
  output(): string;
  alive(): boolean;
  /** Resident memory now, in bytes (Linux; 0 where /proc is missing). */
  rss(): number;
  kill(signal: NodeJS.Signals): Promise<string>;
};

export type ServerProcessOptions = {
  port: number;
  dataDir: string;
  databaseUrl?: string | undefined;
  smtpUrl: string;
  env?: Record<string, string>;
};

export async function startServerProcess(opts: ServerProcessOptions): Promise<ServerProcess> {
  const production = productionCommand();
  const child = spawn(process.execPath, production.args, {
    env: {
      ...process.env,
      ...production.env,
      NODE_ENV: "test",
      PORT: String(opts.port),
      HOST: "127.0.0.1",
      APP_ORIGIN: "",
      SITES_DOMAIN: "",
      DATA_DIR: opts.dataDir,
      DATABASE_URL: opts.databaseUrl ?? "",
      SMTP_URL: opts.smtpUrl,
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      AUTH_SECRET: "fault-suite-secret-fault-suite-secret-0123456789",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  let done = false;
  const exited = new Promise<string>((ok) =>
    child.once("exit", (code, signal) => {
      done = true;
      ok(signal ?? String(code));
    }),
  );
  const pid = child.pid as number;
  const proc: ServerProcess = {
    pid,
    child,
    exited,
    output: () => output,
    alive: () => !done,
    rss: () => {
      try {
        const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
        return Number(kb ?? 0) * 1024;
      } catch {
        return 0;
      }
    },
    kill: async (signal) => {
      if (!done) child.kill(signal);
      return exited;
    },
  };
  // Ready when it answers: the start-up line is logged at info, which the suite keeps quiet.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (done) throw new Error(`the server exited during start-up (${await exited}):\n${output}`);
    const res = await fetch(`http://127.0.0.1:${opts.port}/healthz`, { signal: AbortSignal.timeout(2000) }).catch(
      () => null,
    );
    if (res?.status === 200) break;
    if (Date.now() > deadline) {
      await proc.kill("SIGKILL");
      throw new Error(`the server did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return proc;
}

/** Samples a process's resident memory until stopped; `peak` is the highest seen. */
export function sampleRss(read: () => number, everyMs = 50) {
  let peak = read();
  const timer = setInterval(() => {
    peak = Math.max(peak, read());
  }, everyMs);
  return {
    get peak() {
      return Math.max(peak, read());
    },
    stop: () => clearInterval(timer),
  };
}

export const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
