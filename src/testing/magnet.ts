// What the reader magnet's tests share (ADR 068): book files by their bytes, the author's upload,
// and a reader who signs up on a site and confirms through the mailed link.
import { expect } from "vitest";
import { apiClient, type Caller, readJson } from "./api-client.ts";
import { firstLink } from "./smtp-catcher.ts";
import type { TestServer } from "./test-server.ts";

/** A small PDF: what matters is its first bytes. ASCII only, so a test reads it back as text. */
export const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** The start of an EPUB: a ZIP whose first entry is the stored `mimetype` file. */
export function epub(mimetype = "application/epub+zip", firstName = "mimetype"): Buffer {
  const name = Buffer.from(firstName);
  const body = Buffer.from(mimetype);
  const head = Buffer.alloc(30);
  head.write("PK\u0003\u0004", 0, "latin1");
  head.writeUInt16LE(20, 4);
  head.writeUInt16LE(0, 8); // stored
  head.writeUInt32LE(body.length, 18);
  head.writeUInt32LE(body.length, 22);
  head.writeUInt16LE(name.length, 26);
  head.writeUInt16LE(0, 28);
  return Buffer.concat([head, name, body, Buffer.from("PK\u0001\u0002 the rest of the book", "latin1")]);
}

/** The first bytes of a PNG, whatever the file is called. */
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

export function uploadMagnet(s: TestServer, who: { cookie: string }, bytes: Uint8Array, name = "The Prequel.pdf") {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name, { type: "application/octet-stream" }));
  return readJson(s.api("/api/newsletter/magnet/file", { method: "POST", body: form, cookie: who.cookie }));
}

export const magnetState = (s: TestServer, who: Caller) => readJson(apiClient(s, who).newsletter.magnet.$get());

/** A reader signs up on the site and posts the mailed confirmation link's token: the page, and the token. */
export async function signUpAndConfirm(s: TestServer, host: string, email: string) {
  expect((await s.postOnHost(host, "/newsletter", { email })).status).toBe(200);
  const mail = await s.smtp.waitUntil((m) => m.to.includes(email) && /confirm/i.test(m.subject));
  const confirmToken = new URL(firstLink(mail.text)).searchParams.get("token") ?? "";
  return { page: await s.postOnHost(host, "/newsletter/confirm", { token: confirmToken }), confirmToken };
}

/** The free-book token in a page's download button. */
export const buttonToken = (html: string) =>
  /action="[^"]*\/newsletter\/free-book"[^>]*>\s*<input type="hidden" name="token" value="([^"]+)"/.exec(html)?.[1] ??
  null;
