import type { Readable } from "node:stream";

// Reading a request body within a limit: the bytes are counted as they arrive, so a chunked body
// that grows past the limit is refused as soon as it does, and nothing past the limit is ever
// buffered. The input guard (every request) and a site's form reader both read through this.

/** A body past its limit: the caller answers 413; the rest of the body is never read. */
export class BodyTooLarge extends Error {}

/** The whole body, read at most `limit` bytes far: BodyTooLarge past that (an absent body is empty). */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * readBounded straight from Node's request stream (no web stream, no Request object built around
 * it): the same limit, counted as the chunks arrive, and nothing past it kept. Past the limit the
 * stream is left paused and unread (the caller's 413 closes the connection).
 */
export function readNodeBounded(incoming: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (then: () => void) => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
      then();
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) {
        incoming.pause();
        settle(() => reject(new BodyTooLarge()));
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () =>
      settle(() => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    const onError = (err: Error) => settle(() => reject(err));
    const onClose = () => settle(() => reject(new Error("The connection closed before the request body arrived")));
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}
