import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./resources.ts";

describe("freePort", () => {
  it("reserves a port below the system's ephemeral range, one a server can then listen on", async () => {
    const ephemeralFrom = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeLessThan(ephemeralFrom);
      const server = createServer();
      await new Promise<void>((ok, fail) => server.once("error", fail).listen(port, "127.0.0.1", ok));
      await new Promise((ok) => server.close(ok));
    }
  });
});
