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
