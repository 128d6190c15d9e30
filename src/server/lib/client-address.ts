import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The client's address, by one rule everywhere: the socket's, or behind a trusted proxy the last
 * X-Forwarded-For hop (the one our proxy appended; earlier hops are whatever the client sent).
 */
export function clientAddress(c: Context, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const hop = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (hop) return hop;
  }
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
