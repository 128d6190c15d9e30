import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The client's address, by one rule everywhere: the socket's, or behind a trusted proxy the last
 * X-Forwarded-For hop (the one our proxy appended; earlier hops are whatever the client sent).
 * The socket's address is asked for only when it is the answer.
 */
export function addressByRule(
  forwardedFor: string | undefined,
  socketAddress: () => string | undefined,
  trustProxy: boolean,
): string | undefined {
  if (trustProxy) {
    const hop = forwardedFor?.split(",").at(-1)?.trim();
    if (hop) return hop;
  }
  return socketAddress();
}

/** The client's address of a Hono request (the app and the renderer). */
export function clientAddress(c: Context, trustProxy: boolean): string | undefined {
  return addressByRule(
    c.req.header("x-forwarded-for"),
    () => {
      try {
        return getConnInfo(c).remote.address;
      } catch {
        return undefined;
      }
    },
    trustProxy,
  );
}
