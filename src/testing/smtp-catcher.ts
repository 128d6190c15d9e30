// A real SMTP server for tests: the app sends through nodemailer exactly as in production.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { decodeWords, readMail } from "./mail-message.ts";

/**
 * A received mail: its subject (decoded), the text of its text/plain part (the whole body of a
 * mail with no parts), its HTML part if any, and the raw message as it arrived.
 */
export type CaughtMail = { to: string[]; subject: string; text: string; html: string | null; raw: string };

function parse(raw: string, to: string[]): CaughtMail {
  const mail = readMail(raw);
  const text = mail.part("text/plain")?.body ?? mail.parts[0]?.body ?? "";
  return { to, subject: decodeWords(mail.header("subject")), text, html: mail.part("text/html")?.body ?? null, raw };
}

export async function startSmtpCatcher() {
  const mails: CaughtMail[] = [];
  const waiters: { match: (m: CaughtMail) => boolean; resolve: (m: CaughtMail) => void }[] = [];
  // Frozen: a connection is accepted and then nothing, not even the greeting, until thawed.
  let frozen = false;
  const held: (() => void)[] = [];
  // Refusing: every message is answered with this reply code after its data.
  let refusal: number | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      if (frozen) held.push(() => callback());
      else callback();
    },
    onData(stream, session, callback) {
      if (refusal !== null) {
        const code = refusal;
        stream.on("end", () =>
          callback(
            Object.assign(new Error(code >= 500 ? "Mailbox unavailable" : "Try again later"), { responseCode: code }),
          ),
        );
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const mail = parse(
          Buffer.concat(chunks).toString("utf8"),
          session.envelope.rcptTo.map((r) => r.address),
        );
        mails.push(mail);
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  /** The first received (or next) mail that matches. */
  function waitUntil(
    match: (m: CaughtMail) => boolean,
    timeoutMs = 10_000,
    what = "No matching mail",
  ): Promise<CaughtMail> {
    const found = mails.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`${what} within ${timeoutMs} ms`)), timeoutMs);
      waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(t);
          resolve(m);
        },
      });
    });
  }
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** From now on, a connection gets no greeting (a hung mail server) until `thaw()`. */
    freeze() {
      frozen = true;
    },
    /** Greets the held connections (if their client still waits) and every new one. */
    thaw() {
      frozen = false;
      for (const go of held.splice(0)) go();
    },
    /** Answers every message with this SMTP reply code (4xx: try later, 5xx: never); null accepts again. */
    refuse(code: number | null) {
      refusal = code;
    },
    /** The next (or an already received) mail to `to` whose subject contains `subject`. */
    waitFor(to: string, subject: string, timeoutMs = 10_000): Promise<CaughtMail> {
      return waitUntil(
        (m) => m.to.includes(to.toLowerCase()) && m.subject.includes(subject),
        timeoutMs,
        `No mail "${subject}" to ${to}`,
      );
    },
    waitUntil,
    close: () => {
      frozen = false;
      for (const go of held.splice(0)) go();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

export function firstLink(text: string): string {
  const m = /https?:\/\/\S+/.exec(text);
  if (!m) throw new Error(`No link in mail:\n${text}`);
  return m[0];
}
