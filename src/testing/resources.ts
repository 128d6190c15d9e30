// What tests and benchmarks take from the machine: a free port, a fresh PostgreSQL database.
import { createServer } from "node:net";
import pg from "pg";

/** A port nothing listens on right now (to put in APP_ORIGIN before the server starts). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
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
