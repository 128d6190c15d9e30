// Oversized and slow requests, sent over raw sockets so that nothing buffers or fixes them up on
// the way. Loopback only, bounded in count and in time.
import { connect, type Socket } from "node:net";

export type Outcome = {
  /** The status line's code, or null when the server closed without answering. */
  status: number | null;
  /** Body bytes written before the server answered or closed. */
  sent: number;
  /** From the first byte to the answer or the close, in ms. */
  ms: number;
  /** The suite gave up on it (it had a time limit of its own). */
  timedOut: boolean;
};

type Opened = { socket: Socket; done: Promise<Outcome>; sent(n: number): void };

function open(port: number, limitMs: number): Opened {
  const socket = connect({ host: "127.0.0.1", port });
  socket.setNoDelay(true);
  const started = Date.now();
  let sent = 0;
  let status: number | null = null;
  let head = "";
  const done = new Promise<Outcome>((resolve) => {
    const finish = (timedOut: boolean) => {
      clearTimeout(limit);
      socket.destroy();
      resolve({ status, sent, ms: Date.now() - started, timedOut });
    };
    const limit = setTimeout(() => finish(true), limitMs);
    socket.on("data", (d: Buffer) => {
      if (status !== null) return;
      head += d.toString("latin1");
      const m = /^HTTP\/1\.\d (\d{3})/.exec(head);
      // The answer is all we wait for: a client that got one stops sending.
      if (m) {
        status = Number(m[1]);
        finish(false);
      }
    });
    socket.on("close", () => finish(false));
    socket.on("error", () => finish(false));
  });
  return { socket, done, sent: (n) => (sent += n) };
}

const writeAll = (socket: Socket, data: Buffer | string) =>
  new Promise<boolean>((ok) => {
    if (socket.destroyed) return ok(false);
    if (socket.write(data)) return ok(true);
    const onDrain = () => {
      socket.off("close", onClose);
      ok(true);
    };
    const onClose = () => {
      socket.off("drain", onDrain);
      ok(false);
    };
    socket.once("drain", onDrain);
    socket.once("close", onClose);
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request whose headers arrive a byte at a time and never end. */
export async function slowHeaders(port: number, host: string, byteEveryMs: number, limitMs: number) {
  const c = open(port, limitMs);
  let closed = false;
  void c.done.then(() => {
    closed = true;
  });
  await writeAll(c.socket, `GET / HTTP/1.1\r\nHost: ${host}\r\n`);
  void (async () => {
    while (!closed) {
      await sleep(byteEveryMs);
      if (!closed) await writeAll(c.socket, "X");
    }
  })();
  return c.done;
}

/** A request with complete headers whose body arrives a byte at a time and never ends. */
export async function slowBody(
  port: number,
  host: string,
  path: string,
  byteEveryMs: number,
  limitMs: number,
  opts: { headers?: string; contentType?: string; chunked?: boolean } = {},
) {
  const c = open(port, limitMs);
  let closed = false;
  void c.done.then(() => {
    closed = true;
  });
  await writeAll(
    c.socket,
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n` +
      `Content-Type: ${opts.contentType ?? "application/x-www-form-urlencoded"}\r\n` +
      `${opts.chunked ? "Transfer-Encoding: chunked" : "Content-Length: 100000"}\r\n${opts.headers ?? ""}\r\n`,
  );
  const byte = opts.chunked ? "1\r\na\r\n" : "a";
  void (async () => {
    while (!closed) {
      await sleep(byteEveryMs);
      if (!closed && (await writeAll(c.socket, byte))) c.sent(1);
    }
  })();
  return c.done;
}

/** A large body sent as fast as the server takes it, with a Content-Length or chunked. */
export async function bigBody(
  port: number,
  host: string,
  path: string,
  opts: { bytes: number; chunked: boolean; limitMs: number; contentType?: string; headers?: string },
) {
  const c = open(port, opts.limitMs);
  let closed = false;
  void c.done.then(() => {
    closed = true;
  });
  const framing = opts.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${opts.bytes}`;
  await writeAll(
    c.socket,
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n` +
      `Content-Type: ${opts.contentType ?? "application/x-www-form-urlencoded"}\r\n${framing}\r\n${opts.headers ?? ""}\r\n`,
  );
  const piece = Buffer.alloc(1024 * 1024, "a");
  const chunk = opts.chunked
    ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
    : piece;
  void (async () => {
    for (let sent = 0; sent < opts.bytes && !closed; sent += piece.length) {
      if (!(await writeAll(c.socket, chunk))) return;
      c.sent(piece.length);
    }
    if (opts.chunked && !closed) await writeAll(c.socket, "0\r\n\r\n");
  })();
  return c.done;
}
