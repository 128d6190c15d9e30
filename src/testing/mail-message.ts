// Reads a mail as it arrived at the SMTP catcher, the way a mail program does: headers unfolded
// (and RFC 2047 words decoded where asked), the MIME tree walked, each part's body decoded. Enough
// for our own mails (nodemailer's multipart/alternative, quoted-printable or base64 parts).

export type MailPart = { type: string; headers: Map<string, string[]>; body: string };
export type ReadMail = {
  /** Header names in lower case; each value unfolded, as sent (encoded words left as they are). */
  headers: Map<string, string[]>;
  /** The first value of a header, "" when absent. */
  header(name: string): string;
  /** The top-level Content-Type's media type (e.g. "multipart/alternative"). */
  type: string;
  /** The leaf parts, in order. */
  parts: MailPart[];
  part(type: string): MailPart | undefined;
};

function split(raw: string): { head: string; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { head: raw, body: "" };
  const sep = /\r?\n\r?\n/.exec(raw.slice(at))?.[0] ?? "\n\n";
  return { head: raw.slice(0, at), body: raw.slice(at + sep.length) };
}

function headersOf(head: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const m = /^([!-9;-~]+):\s*(.*)$/.exec(line);
    if (!m?.[1]) continue;
    const name = m[1].toLowerCase();
    out.set(name, [...(out.get(name) ?? []), (m[2] ?? "").trim()]);
  }
  return out;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function decodeBody(body: string, encoding: string): string {
  if (/quoted-printable/i.test(encoding)) return decodeQuotedPrintable(body);
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=) as text. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BQ]\?[^?]*\?=)\s+(?==\?)/gi, "$1")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function walk(headers: Map<string, string[]>, body: string, into: MailPart[]): void {
  const contentType = headers.get("content-type")?.[0] ?? "text/plain";
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "text/plain";
  if (type.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return;
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith("--")) break;
      const { head, body: inner } = split(section.replace(/^\r?\n/, ""));
      walk(headersOf(head), inner.replace(/\r?\n$/, ""), into);
    }
    return;
  }
  // Line ends as a mail program shows them (SMTP sends CRLF).
  const decoded = decodeBody(body, headers.get("content-transfer-encoding")?.[0] ?? "").replace(/\r\n/g, "\n");
  into.push({ type, headers, body: decoded });
}

export function readMail(raw: string): ReadMail {
  const { head, body } = split(raw);
  const headers = headersOf(head);
  const parts: MailPart[] = [];
  walk(headers, body, parts);
  return {
    headers,
    header: (name) => headers.get(name.toLowerCase())?.[0] ?? "",
    type: (headers.get("content-type")?.[0] ?? "text/plain").split(";")[0]?.trim().toLowerCase() ?? "",
    parts,
    part: (type) => parts.find((p) => p.type === type),
  };
}
