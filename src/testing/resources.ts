// What tests and benchmarks take from the machine: a free port, a fresh PostgreSQL database.
import { createServer } from "node:net";
import pg from "pg";

/**
 * Below Linux's ephemeral range (32768–60999), from which the system picks the local port of
 * every outgoing connection and of a listen on port 0: a port reserved there can be taken by a
 * client's connection before the server that reserved it listens (CI saw EADDRINUSE). Here no
 * connection takes it; only another reservation could, one chance in ten thousand.
 */
const RESERVABLE = { from: 20_000, to: 32_000 };

function listens(port: number): Promise<boolean> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", (err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" ? ok(false) : fail(err)));
    s.listen(port, "127.0.0.1", () => s.close(() => ok(true)));
  });
}

/** A port nothing listens on right now (to put in APP_ORIGIN before the server starts). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = RESERVABLE.from + Math.floor(Math.random() * (RESERVABLE.to - RESERVABLE.from));
    if (await listens(port)) return port;
  }
}

/** A fresh database on the PostgreSQL server at `baseUrl`, dropped by the returned function. */
export async function freshPostgres(baseUrl: string, prefix = "bookplate_test") {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
