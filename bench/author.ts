// A signed-in author for the benchmarks that drive the dashboard's API: signed up, verified
// through the SMTP catcher the server was started with, and onboarded, as a browser would.
import { firstLink, type startSmtpCatcher } from "../src/testing/smtp-catcher.ts";
import { get } from "./lib.ts";

/** An author signed up, verified (through the SMTP catcher) and onboarded; their session cookie. */
export async function signedInAuthor(port: number, smtp: Awaited<ReturnType<typeof startSmtpCatcher>>) {
  const app = `localhost:${port}`;
  const origin = `http://${app}`;
  const email = `bench-${Date.now().toString(36)}@example.com`;
  const json = (body: unknown, cookie = "") => ({
    method: "POST",
    headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const up = await get(
    port,
    app,
    "/api/auth/sign-up/email",
    json({ name: "Bench Author", email, password: "correct horse battery" }),
  );
  if (up.status !== 200) throw new Error(`sign-up answered ${up.status}: ${up.body}`);
  const mail = await smtp.waitFor(email, "Confirm your email");
  const link = new URL(firstLink(mail.text));
  const verified = await get(port, app, `${link.pathname}${link.search}`);
  const setCookie = verified.headers["set-cookie"];
  const cookie = (Array.isArray(setCookie) ? setCookie : [])
    .map((c) => c.split(";")[0] ?? "")
    .filter((kv) => !kv.endsWith("="))
    .join("; ");
  if (!cookie) throw new Error(`verification did not sign in: ${verified.status}`);
  const onboard = await get(
    port,
    app,
    "/api/onboarding/complete",
    json(
      {
        name: "Bench Author",
        email,
        websiteName: "Bench Books",
        subdomain: `bench${Date.now().toString(36)}`,
        domainOption: "free",
        tier: "midi",
        currency: "GBP",
      },
      cookie,
    ),
  );
  if (onboard.status !== 201) throw new Error(`onboarding answered ${onboard.status}: ${onboard.body}`);
  return cookie;
}
