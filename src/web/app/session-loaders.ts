import { type LoaderFunctionArgs, redirect } from "react-router";
import { CURRENCIES, TIERS } from "../../shared/enums.ts";
import { safeNextPath, withNext } from "../../shared/next-path.ts";
import type { PricingViewer } from "../features/pricing/pricing-page.tsx";
import { fetchOnboardingState, fetchSubscription, type OnboardingState } from "../lib/account-state.ts";
import { ApiError, client, read } from "../lib/api.ts";
import { authClient } from "../lib/auth-client.ts";

/**
 * The current session, or null when signed out. A server or network failure is thrown to the
 * error screen rather than read as "signed out", which would bounce a signed-in person to /login.
 */
async function currentSession() {
  const { data, error } = await authClient.getSession();
  if (error && (error.status === 0 || error.status >= 500)) {
    throw new Error(`Could not check your session (${error.status || "network error"}): ${error.message ?? ""}`.trim());
  }
  return data;
}

const here = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

/** Signed-in screens: anyone else goes to the sign-in page. */
export async function requireSession() {
  if (!(await currentSession())) throw redirect("/login");
  return null;
}

/** Sign-in and sign-up: someone already signed in goes where they were heading, or to the dashboard. */
export async function redirectIfSignedIn({ request }: LoaderFunctionArgs) {
  if (await currentSession()) {
    throw redirect(safeNextPath(new URL(request.url).searchParams.get("next")) ?? "/dashboard");
  }
  return null;
}

/**
 * The wizard. A signed-out visitor here wants to start a trial, so they go to sign-up (with a
 * way to sign in instead) and come back here afterwards — never /login → /onboarding → /login.
 * Someone who already has a website goes to the dashboard.
 */
export async function onboardingLoader({ request }: LoaderFunctionArgs): Promise<OnboardingState> {
  if (!(await currentSession())) throw redirect(withNext("/signup", here(request)));
  const state = await loadState();
  if (state.onboardingCompleted) throw redirect("/dashboard");
  return state;
}

/**
 * The dashboard needs a website: a signed-in author without one is sent to set it up. Staff
 * without a site of their own (sign-in lands here) go to the back office instead; they can still
 * open /onboarding themselves.
 */
export async function dashboardLoader(): Promise<OnboardingState> {
  const state = await loadState();
  if (!state.onboardingCompleted) throw redirect((await isStaff()) ? "/admin" : "/onboarding");
  return state;
}

/** Whether the signed-in person is staff; a failed check reads as "not staff" (the wizard, as before). */
async function isStaff(): Promise<boolean> {
  try {
    return (await read(client.admin.access.$get())).staff;
  } catch {
    return false;
  }
}

async function loadState(): Promise<OnboardingState> {
  try {
    return await fetchOnboardingState();
  } catch (err) {
    // Signed out between the session check and here (or the session just expired).
    if (err instanceof ApiError && err.status === 401) throw redirect("/login");
    throw err;
  }
}

/** The plan screen (signed in): the website and the plan the author is on. */
export async function pricingLoader(): Promise<PricingViewer> {
  if (!(await currentSession())) throw redirect("/login");
  const state = await loadState();
  const subscription = state.website ? await fetchSubscription().catch(() => null) : null;
  return { kind: "account", state, subscription };
}

/**
 * A plan button of the public pricing page (server-rendered, the same for everyone) lands here:
 * a visitor signs up and then goes through the wizard with that plan and currency; an account
 * without a website goes to the wizard; an author goes to the plan screen to confirm.
 */
export async function choosePlanLoader({ request }: LoaderFunctionArgs) {
  const from = new URL(request.url).searchParams;
  const q = new URLSearchParams();
  const tier = from.get("tier");
  const currency = from.get("currency");
  if (tier && (TIERS as readonly string[]).includes(tier)) q.set("tier", tier);
  if (currency && (CURRENCIES as readonly string[]).includes(currency)) q.set("currency", currency);
  const wizard = `/onboarding${q.size ? `?${q}` : ""}`;
  if (!(await currentSession())) throw redirect(withNext("/signup", wizard));
  const state = await loadState();
  if (!state.website) throw redirect(wizard);
  throw redirect(`/dashboard/plan${q.size ? `?${q}` : ""}`);
}
