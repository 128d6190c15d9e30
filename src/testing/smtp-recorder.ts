// A real SMTP server for the crash tests (ADR 066, 073): it records, per address, the Message-IDs
// it accepted (answered 250), and can run something (kill the sender) while it holds the Nth
// message, before answering it, so that message was never accepted.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SmtpRecorder = Awaited<ReturnType<typeof startSmtpRecorder>>;

export async function startSmtpRecorder(killAt: number) {
  const accepted = new Map<string, string[]>();
  const received: { to: string; messageId: string }[] = [];
  let onNth: (() => Promise<void>) | null = null;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks)
          .toString("utf8")
          .replace(/\r?\n[ \t]+/g, " ");
        const messageId = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? "";
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(",");
        received.push({ to, messageId });
        if (received.length === killAt && onNth) {
          // The sender dies holding this message: no 250 ever reaches it.
          await onNth();
          callback(Object.assign(new Error("Gone"), { responseCode: 421 }));
          return;
        }
        accepted.set(to, [...(accepted.get(to) ?? []), messageId]);
        callback();
      });
    },
  });
  await new Promise<void>((ok) => smtp.listen(0, "127.0.0.1", ok));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    accepted,
    received,
    /** What to run while the `killAt`th message is held. */
    whenNth(run: () => Promise<void>) {
      onNth = run;
    },
    close: () => new Promise<void>((ok) => smtp.close(() => ok())),
  };
}
