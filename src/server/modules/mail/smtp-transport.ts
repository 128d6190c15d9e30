// The mailer's side of the SMTP server (ADR 048): transports with bounded timeouts, made with the
// first mail they carry (ADR 037), the health panel's probe, and which failures will not pass on
// a later attempt. What to send and when is mail.service.ts's.
import type { Transporter } from "nodemailer";
import type { DkimOptions } from "./mail-form.ts";

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A 5xx reply will be the same next time (unknown mailbox, refused content); so will a message
 * nodemailer could not even build. Anything else (4xx, timeouts, refused connections) may pass later.
 */
export function isPermanent(err: unknown): boolean {
  const e = err as { responseCode?: unknown; code?: unknown };
  if (typeof e?.responseCode === "number") return e.responseCode >= 500 && e.responseCode < 600;
  return e?.code === "EENVELOPE" || e?.code === "EMESSAGE";
}

export function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(Object.assign(new Error(`${what} took over ${ms} ms`), { code: "ETIMEDOUT" })), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// nodemailer is loaded with the first mail to send, and only when there is an SMTP server (ADR 037).
const timeouts = (ms: number) => ({ connectionTimeout: ms, greetingTimeout: ms, socketTimeout: 3 * ms });

/** A transport made with the first mail it carries (ADR 037), closed with the mailer. */
export function lazyTransport(
  smtpUrl: string,
  timeoutMs: number,
  dkim: DkimOptions | undefined,
  options: Record<string, unknown>,
) {
  let made: Transporter | undefined;
  let making: Promise<Transporter> | undefined;
  return {
    get: () =>
      (making ??= import("nodemailer").then((m) => {
        made = m.default.createTransport({
          url: smtpUrl,
          ...options,
          ...timeouts(timeoutMs),
          ...(dkim ? { dkim } : {}),
        });
        return made;
      })),
    close: () => made?.close(),
  };
}

/** Whether the SMTP server answers within `checkTimeoutMs`, for the back office's health panel. */
export async function checkSmtp(smtpUrl: string, checkTimeoutMs: number): Promise<{ ok: boolean; detail: string }> {
  const started = performance.now();
  // A transport of its own, so a frozen server cannot hold the panel past its wait.
  let probe: Transporter | undefined;
  try {
    const m = await import("nodemailer");
    probe = m.default.createTransport({ url: smtpUrl, ...timeouts(checkTimeoutMs) });
    await deadline(probe.verify(), checkTimeoutMs, "waited");
    return { ok: true, detail: `SMTP server answered in ${Math.round(performance.now() - started)} ms` };
  } catch (err) {
    const waited = (err as { code?: unknown }).code === "ETIMEDOUT";
    return {
      ok: false,
      detail: waited
        ? `SMTP server did not answer within ${checkTimeoutMs / 1000} s`
        : `SMTP server did not answer: ${messageOf(err)}`,
    };
  } finally {
    probe?.close();
  }
}
