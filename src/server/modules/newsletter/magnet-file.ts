// What a reader magnet's file is, judged by its bytes and never by its name (ADR 068): a PDF
// starts with `%PDF-`; an EPUB is a ZIP whose first entry is the uncompressed file `mimetype`
// holding `application/epub+zip` (the EPUB Open Container Format). And the name a reader's
// download is saved under, safe for a header.

import { MAGNET_MAX_BYTES, MAGNET_MESSAGES, type MagnetType } from "../../../shared/schemas/magnet.ts";
import { DomainError } from "../../lib/domain-error.ts";

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(length, bytes.length - from))).toString(
    "latin1",
  );

const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);

function isEpub(b: Uint8Array): boolean {
  if (b.length < 30 || ascii(b, 0, 4) !== "PK\u0003\u0004") return false;
  const method = u16(b, 8);
  const nameLength = u16(b, 26);
  const extraLength = u16(b, 28);
  if (method !== 0 || ascii(b, 30, nameLength) !== "mimetype") return false;
  const start = 30 + nameLength + extraLength;
  return ascii(b, start, 64).trim().startsWith("application/epub+zip");
}

/** The file's type by its content; a DomainError (nothing changed) for anything else. */
export function magnetTypeOf(bytes: Uint8Array): MagnetType {
  if (bytes.length === 0) throw new DomainError("validation_failed", MAGNET_MESSAGES.empty, { field: "file" });
  if (bytes.length > MAGNET_MAX_BYTES) throw magnetTooLarge();
  if (ascii(bytes, 0, 5) === "%PDF-") return "application/pdf";
  if (isEpub(bytes)) return "application/epub+zip";
  throw new DomainError("validation_failed", MAGNET_MESSAGES.notABook, { field: "file" });
}

export const magnetTooLarge = () => new DomainError("payload_too_large", MAGNET_MESSAGES.tooLarge, { field: "file" });

const EXTENSION: Record<MagnetType, string> = { "application/pdf": ".pdf", "application/epub+zip": ".epub" };

export const extensionOf = (type: MagnetType) => EXTENSION[type];

/**
 * The name a download is saved under: the author's file name without its path, control or
 * reserved characters, at most 100 characters, ending in the extension of what the file is.
 */
export function downloadName(uploaded: string, type: MagnetType): string {
  const base = (uploaded.split(/[\\/]/).pop() ?? "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f"*:<>?|\u2028\u2029]+/g, " ")
    .replace(/\.(pdf|epub)$/i, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100);
  return `${base || "free-book"}${EXTENSION[type]}`;
}

/** `attachment` with an ASCII name for old clients and the exact one (RFC 6266, RFC 5987). */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
