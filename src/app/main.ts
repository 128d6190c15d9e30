// The process: read configuration, start, and shut down cleanly on SIGTERM/SIGINT.
import { DataDirLockedError } from "../db/data-dir-lock.ts";
import { loadEnv } from "../server/env.ts";
import { holdTickRecordShape } from "../server/lib/tick-shape.ts";
import { startServer } from "./server.ts";

async function main() {
  // Before anything else runs: keeps every later process.nextTick on V8's fast path (ADR 038).
  holdTickRecordShape();
  const env = loadEnv();
  // Nothing can be served without it, and a new process recovers it from its log.
  const server = await startServer(env, { onDatabaseLost: () => process.exit(1) });
  server.logger.info(
    { url: env.appOrigin, sites: `{subdomain}.${env.sitesDomain}`, database: server.database.kind },
    `Bookplate is running at ${env.appOrigin} (demo site: ${env.appOrigin}/demo)`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await server.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err: unknown) => {
  if (err instanceof DataDirLockedError || (err instanceof Error && err.message.startsWith("Invalid configuration"))) {
    console.error(`\n${err.message}\n`);
  } else if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
    console.error(`\nPort already in use: ${(err as Error).message}. Set PORT to another port.\n`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
