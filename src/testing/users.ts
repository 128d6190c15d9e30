// Test accounts made the way a person makes them: sign up, follow the verification link (which
// signs in), and optionally finish onboarding (profile, website, trial subscription on a plan).
import { setRole } from "../app/cli/admin.ts";
import type { Currency, Tier } from "../shared/enums.ts";
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

/** A signed-in member of staff: a user given `role` the way the operator does (the CLI's setRole). */
export async function createStaffUser(
  s: TestServer,
  role: "admin" | "super_admin",
  opts: { email?: string; name?: string; prefix?: string } = {},
): Promise<TestUser> {
  const u = await createSignedInUser(s, opts);
  await setRole(s.database.db, u.email, role);
  return u;
}

/** A signed-in admin and super admin (e-mail addresses starting `{prefix}staff` and `{prefix}boss`). */
export async function createStaff(s: TestServer, prefix = ""): Promise<{ admin: TestUser; superAdmin: TestUser }> {
  const admin = await createStaffUser(s, "admin", { prefix: `${prefix}staff` });
  const superAdmin = await createStaffUser(s, "super_admin", { prefix: `${prefix}boss` });
  return { admin, superAdmin };
}

/**
 * A signed-in author who finished onboarding and checkout: website on a subdomain, trial on `tier`
 * in `currency` (GBP unless told).
 */
export async function createAuthor(
  s: TestServer,
  opts: {
    tier?: Tier;
    currency?: Currency;
    name?: string;
    email?: string;
    /** The start of the e-mail address ("author" unless told). */
    prefix?: string;
    subdomain?: string;
    /** true: onboarding with an own domain (`{subdomain}-books.com`), which adds the custom-domain add-on. */
    ownDomain?: boolean;
    /** false: leave checkout undone (site not public). */
    checkout?: boolean;
  } = {},
): Promise<TestAuthor> {
  const u = await createSignedInUser(s, {
    prefix: opts.prefix ?? "author",
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.email ? { email: opts.email } : {}),
  });
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
      ...(opts.ownDomain ? { domainOption: "custom", ownDomain: `${subdomain}-books.com` } : { domainOption: "free" }),
      tier,
      currency: opts.currency ?? "GBP",
    },
  });
  if (res.status !== 201) throw new Error(`onboarding failed: ${res.status} ${await res.text()}`);
  const { checkoutUrl } = (await res.json()) as { checkoutUrl: string };
  if (opts.checkout !== false) await completeSandboxCheckout(s, u.cookie, checkoutUrl);
  return { ...u, subdomain, tier };
}

/**
 * Enters the (sandbox) card, as the author does right after the wizard: until then the site is
 * not public. A Stripe checkout URL is left alone (those tests drive the fake Stripe themselves).
 */
export async function completeSandboxCheckout(s: TestServer, cookie: string, checkoutUrl: string) {
  const url = new URL(checkoutUrl, s.url);
  if (url.pathname !== "/billing/sandbox/checkout") return;
  const post = await s.api("/billing/sandbox/checkout", {
    method: "POST",
    cookie,
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      session: url.searchParams.get("session") ?? "",
      action: "pay",
      card: "4242",
    }).toString(),
  });
  if (post.status !== 303) throw new Error(`sandbox checkout failed: ${post.status} ${await post.text()}`);
}
