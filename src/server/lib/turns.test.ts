import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { takeTurns } from "./turns.ts";

/** Holds the thread for `ms`, as a request does whose statements run in this thread (PGlite). */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a render's synchronous stretch
  }
};

describe("takeTurns", () => {
  it("starts everything given, in order, each once", async () => {
    const turns = takeTurns();
    const started: number[] = [];
    const done = new Promise<void>((ok) => {
      for (let i = 0; i < 5; i++) turns(() => started.push(i));
      turns(ok);
    });
    await done;
    expect(started).toEqual([0, 1, 2, 3, 4]);
    // Idle again, it starts the next one given too.
    await new Promise<void>((ok) => turns(ok));
  });

  it("lets the event loop accept a waiting connection between two starts", async () => {
    const server = createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as { port: number }).port;
    const order: string[] = [];
    server.on("connection", (socket: Socket) => {
      order.push("connection");
      socket.destroy();
    });
    const turns = takeTurns();
    let client: Socket | undefined;
    const bothStarted = new Promise<void>((ok) => {
      turns(() => {
        order.push("first");
        // A reader connects while the first request holds the thread.
        client = connect(port, "127.0.0.1");
        client.on("error", () => undefined);
        busy(30);
      });
      turns(() => {
        order.push("second");
        ok();
      });
    });
    await bothStarted;
    await new Promise((ok) => setTimeout(ok, 50));
    client?.destroy();
    server.close();
    expect(order).toEqual(["first", "connection", "second"]);
  });

  it("lets due timers run between two starts", async () => {
    const turns = takeTurns();
    const order: string[] = [];
    await new Promise<void>((ok) => {
      turns(() => {
        order.push("first");
        setTimeout(() => order.push("timer"), 0);
        busy(5);
      });
      turns(() => {
        order.push("second");
        ok();
      });
    });
    expect(order).toEqual(["first", "timer", "second"]);
  });
});
