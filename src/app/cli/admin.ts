// `npm run admin -- grant you@example.com [admin|super_admin]` and `... revoke you@example.com`.
import { eq, sql } from "drizzle-orm";
import type { openDatabase } from "../../db/client.ts";
import { DataDirLockedError } from "../../db/data-dir-lock.ts";
import { user } from "../../db/schema/index.ts";
import { loadEnv } from "../../server/env.ts";
import { runCli, withDatabase } from "./run-cli.ts";

const USAGE = `Usage:
  npm run admin -- grant <email> [admin|super_admin]   give a user an admin role (default admin)
  npm run admin -- revoke <email>                      make an admin a plain user again`;

export async function setRole(
  db: Awaited<ReturnType<typeof openDatabase>>["db"],
  email: string,
  role: "user" | "admin" | "super_admin",
): Promise<boolean> {
  const rows = await db
    .update(user)
    .set({ role, updatedAt: new Date() })
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .returning({ id: user.id });
  return rows.length > 0;
}

async function main(argv: string[]) {
  const [command, email, roleArg] = argv;
  const role = command === "revoke" ? "user" : (roleArg ?? "admin");
  if (!email || (command !== "grant" && command !== "revoke") || !["admin", "super_admin", "user"].includes(role)) {
    console.error(USAGE);
    return 2;
  }
  return withDatabase(loadEnv(), async (database) => {
    await database.migrate();
    const ok = await setRole(database.db, email, role as "user" | "admin" | "super_admin");
    if (!ok) {
      console.error(`No account with the email ${email}. The person must sign up first.`);
      return 1;
    }
    console.log(command === "grant" ? `${email} is now ${role}.` : `${email} is no longer an admin.`);
    return 0;
  });
}

runCli(import.meta.url, main, [DataDirLockedError]);
