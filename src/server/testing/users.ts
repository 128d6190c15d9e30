// Test accounts made the way a person makes them: sign up, follow the verification link (which
// signs in), and optionally finish onboarding (profile, website, trial subscription on a plan).
import type { Tier } from "../../shared/enums.ts";
import { firstLink } from "./smtp-catcher.ts";
import { cookiesFrom, type TestServer } from "./test-server.ts";

export const TEST_PASSWORD = "correct horse battery";

export type TestUser = { id: string; email: string; name: string; cookie: string };
export type TestAuthor = TestUser & { subdomain: string; tier: Tier };

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A signed-up, verified and signed-in user (no website yet). */
export async function createSignedInUser(
  s: TestServer,
  opts: { email?: string; name?: string; prefix?: string } = {},
): Promise<TestUser> {
  const email = opts.email ?? `${opts.prefix ?? "user"}-${unique()}@example.com`;
  const name = opts.name ?? "Jane Author";
  const res = await s.api("/api/auth/sign-up/email", {
    method: "POST",
    json: { name, email, password: TEST_PASSWORD },
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as { user: { id: string } }).user.id;
  const mail = await s.smtp.waitFor(email, "Confirm your email");
  const verify = await fetch(firstLink(mail.text), { redirect: "manual" });
  const cookie = cookiesFrom(verify);
  if (!cookie) throw new Error(`verification did not sign in: ${verify.status}`);
  return { id, email, name, cookie };
}

/** A signed-in author who finished onboarding: website on a subdomain, trial on `tier`. */
export async function createAuthor(
  s: TestServer,
  opts: { tier?: Tier; name?: string; subdomain?: string } = {},
): Promise<TestAuthor> {
  const u = await createSignedInUser(s, { prefix: "author", ...(opts.name ? { name: opts.name } : {}) });
  const tier = opts.tier ?? "mini";
  const subdomain = opts.subdomain ?? `a${unique()}`.slice(0, 40);
  const res = await s.api("/api/onboarding/complete", {
    method: "POST",
    cookie: u.cookie,
    json: {
      name: u.name,
      email: u.email,
      websiteName: `${u.name}'s Books`,
      subdomain,
      domainOption: "free",
      tier,
      currency: "GBP",
    },
  });
  if (res.status !== 201) throw new Error(`onboarding failed: ${res.status} ${await res.text()}`);
  return { ...u, subdomain, tier };
}
