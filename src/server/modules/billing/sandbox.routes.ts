// The sandbox billing provider's pages on the app host (used when Stripe keys are not set).
//
// GET  /billing/sandbox/checkout?session=…   'TEST MODE — no real payment' checkout page
// POST /billing/sandbox/checkout             form { session, action: "pay" | "cancel" } →
//        303 to /dashboard?success=true&session_id=… (pay) or /dashboard?checkout=cancelled (cancel: the dashboard says what happened)
// GET  /billing/sandbox/portal               plan, status; change plan, cancel, reactivate
// POST /billing/sandbox/portal               form { action: "change-plan" | "cancel" | "reactivate", tier? } → 303 back
// All need the signed-in author; a session made for another user is refused (404).
import { type Context, Hono } from "hono";
import { CHECKOUT_CANCELLED_PATH } from "../../../shared/app-routes.ts";
import { formatDate } from "../../../shared/dates.ts";
import type { Currency, Tier } from "../../../shared/enums.ts";
import { TIERS } from "../../../shared/enums.ts";
import {
  CUSTOM_DOMAIN_ADDON_MINOR,
  formatMoney,
  isTier,
  MONTHLY_PRICE_MINOR,
  PLANS,
  TRIAL_DAYS,
} from "../../../shared/plans.ts";
import type { AppVars } from "../../http/context.ts";
import { HttpError } from "../../http/errors.ts";
import { requireUser, type SessionUser } from "../../http/session.ts";
import { DomainError } from "../../lib/domain-error.ts";
import { cancelSubscription, changePlan, getSubscriptionRow, reactivateSubscription } from "./billing.service.ts";
import { assertDowngradeConfirmed } from "./downgrade.ts";
import { decodeSandboxSession, sandboxProvider } from "./provider.ts";
import { completeSandboxCheckout, sandboxCheckoutChargesNow, sandboxNextPayment } from "./sandbox-billing.service.ts";

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} — Bookplate (test mode)</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#111827}
.banner{background:#fef3c7;border:2px solid #d97706;color:#92400e;padding:.75rem 1rem;border-radius:.5rem;font-weight:700;text-align:center}
.card{border:1px solid #e5e7eb;border-radius:.75rem;padding:1.25rem;margin-top:1rem}
label{display:block;margin-top:.75rem;font-size:.9rem}input,select{width:100%;padding:.5rem;margin-top:.25rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1rem;border-radius:.5rem;border:0;background:#2563eb;color:#fff;font-weight:600;cursor:pointer}
button.secondary{background:#e5e7eb;color:#111827}.row{display:flex;gap:.5rem;flex-wrap:wrap}</style></head>
<body><p class="banner" role="status">TEST MODE — no real payment</p>${body}</body></html>`;
}

async function signedIn(c: Context<AppVars>): Promise<SessionUser | null> {
  try {
    return await requireUser(c);
  } catch {
    return null;
  }
}

function loginPage(c: Context<AppVars>) {
  return c.html(
    page("Sign in", `<div class="card"><p>Please <a href="/login">sign in</a> to continue.</p></div>`),
    401,
  );
}

/**
 * Forms on these pages post only from the app itself. A browser says where a form came from
 * with Origin, or Sec-Fetch-Site when it leaves Origin out; either naming another site refuses.
 */
function sameOrigin(c: Context<AppVars>) {
  const origin = c.req.header("origin");
  const site = c.req.header("sec-fetch-site");
  const foreignOrigin = origin !== undefined && origin !== c.get("deps").env.appOrigin;
  const foreignSite = site !== undefined && site !== "same-origin" && site !== "none";
  if (foreignOrigin || foreignSite)
    throw new HttpError(403, "Cross-site request refused", { code: "cross_site_refused" });
}

export function sandboxBillingRoutes() {
  const r = new Hono<AppVars>();
  r.use("*", async (c, next) => {
    c.header("Cache-Control", "no-store");
    if (c.get("deps").env.stripeSecretKey && c.get("deps").env.stripeWebhookSecret) {
      return c.html(page("Not available", `<p>Sandbox billing is off: Stripe is configured.</p>`), 404);
    }
    return next();
  });

  r.get("/checkout", async (c) => {
    const me = await signedIn(c);
    if (!me) return loginPage(c);
    const id = c.req.query("session") ?? "";
    const s = decodeSandboxSession(id);
    if (!s || s.userId !== me.id) {
      return c.html(
        page("Checkout not found", `<div class="card"><p>This checkout session was not found.</p></div>`),
        404,
      );
    }
    const plan = PLANS[s.tier];
    const price = MONTHLY_PRICE_MINOR[s.tier][s.currency];
    const addon = s.customDomain ? CUSTOM_DOMAIN_ADDON_MINOR[s.currency] : 0;
    const starts = new Date(Date.now() + TRIAL_DAYS * 24 * 60 * 60 * 1000);
    // A returning subscriber has no trial left: this checkout charges today (ADR 045).
    const now = sandboxCheckoutChargesNow(await getSubscriptionRow(c.get("deps").database.db, me.id));
    const terms = now
      ? `<p>Total today, then monthly: <strong>${formatMoney(price + addon, s.currency)}/month</strong></p>
<p>Your free trial has been used, so billing starts today. Cancel any time.</p>`
      : `<p>Total after the trial: <strong>${formatMoney(price + addon, s.currency)}/month</strong></p>
<p>${TRIAL_DAYS}-day free trial — billing starts on day 15 (${esc(formatDate(starts, "long"))}). Cancel any time.</p>`;
    return c.html(
      page(
        "Checkout",
        `<div class="card"><h1>${now ? "Restart your subscription" : `Start your ${TRIAL_DAYS}-day free trial`}</h1>
<p><strong>${esc(plan.name)}</strong> plan (${esc(plan.range)}): <strong>${formatMoney(price, s.currency)}/month</strong></p>
${s.customDomain ? `<p>Custom domain add-on: ${formatMoney(addon, s.currency)}/month</p>` : ""}
${terms}
<form method="post" action="/billing/sandbox/checkout">
<input type="hidden" name="session" value="${esc(id)}">
<label>Card number<input name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242"></label>
<div class="row"><label>Expiry<input name="exp" value="12/34"></label><label>CVC<input name="cvc" value="123"></label></div>
<div class="row"><button type="submit" name="action" value="pay">${now ? "Pay" : "Pay / Start trial"}</button>
<button class="secondary" type="submit" name="action" value="cancel">Cancel</button></div>
</form></div>`,
      ),
    );
  });

  r.post("/checkout", async (c) => {
    sameOrigin(c);
    const me = await signedIn(c);
    if (!me) return loginPage(c);
    const form = await c.req.parseBody();
    const id = typeof form.session === "string" ? form.session : "";
    const s = decodeSandboxSession(id);
    if (!s || s.userId !== me.id) {
      return c.html(
        page("Checkout not found", `<div class="card"><p>This checkout session was not found.</p></div>`),
        404,
      );
    }
    if (form.action === "cancel") return c.redirect(CHECKOUT_CANCELLED_PATH, 303);
    if (form.action !== "pay") throw new HttpError(400, "Unknown action");
    await completeSandboxCheckout(c.get("deps").database.db, me.id, s);
    return c.redirect(`/dashboard?success=true&session_id=${encodeURIComponent(id)}`, 303);
  });

  r.get("/portal", async (c) => {
    const me = await signedIn(c);
    if (!me) return loginPage(c);
    const row = await getSubscriptionRow(c.get("deps").database.db, me.id);
    if (!row) {
      return c.html(
        page(
          "Billing",
          `<div class="card"><p>No subscription yet.</p><a href="/onboarding">Set up your website</a></div>`,
        ),
        404,
      );
    }
    const tier = row.tier as Tier;
    const currency = row.currency as Currency;
    const options = TIERS.map(
      (t) =>
        `<option value="${t}"${t === tier ? " selected" : ""}>${PLANS[t].name} — ${formatMoney(MONTHLY_PRICE_MINOR[t][currency], currency)}/month</option>`,
    ).join("");
    const until =
      row.status === "cancelled"
        ? `<p>Your site stays live until ${esc(formatDate(row.currentPeriodEnd, "long"))}.</p>`
        : "";
    const trial = row.status === "trial" ? `<p>Trial ends ${esc(formatDate(row.trialEndsAt, "long"))}.</p>` : "";
    const notice = c.req.query("done") ? `<p role="status">Saved.</p>` : "";
    const due = sandboxNextPayment(row);
    const next = due
      ? `<p>Next payment: <strong>${due.amountMinor > 0 ? formatMoney(due.amountMinor, currency) : "nothing to pay (your credit covers it)"}</strong> on ${esc(formatDate(due.at, "long"))}.</p>`
      : "";
    return c.html(
      page(
        "Manage subscription",
        `<div class="card"><h1>Manage subscription</h1>${notice}
<p>Plan: <strong>${esc(PLANS[tier].name)}</strong> — status: <strong>${esc(row.status)}</strong></p>${trial}${until}${next}
${
  row.status === "expired"
    ? ""
    : `<form method="post" action="/billing/sandbox/portal"><input type="hidden" name="action" value="change-plan">
<label>Change plan<select name="tier">${options}</select></label><button type="submit">Change plan</button></form>`
}
<form method="post" action="/billing/sandbox/portal">${
          row.status === "cancelled" || row.status === "expired"
            ? `<input type="hidden" name="action" value="reactivate"><button type="submit">Reactivate</button>`
            : `<input type="hidden" name="action" value="cancel"><button class="secondary" type="submit">Cancel subscription</button>`
        }</form>
<p><a href="/dashboard">Return to dashboard</a></p></div>`,
      ),
    );
  });

  r.post("/portal", async (c) => {
    sameOrigin(c);
    const me = await signedIn(c);
    if (!me) return loginPage(c);
    const { database, env } = c.get("deps");
    const provider = sandboxProvider(env.appOrigin);
    const form = await c.req.parseBody();
    if (form.action === "change-plan") {
      if (!isTier(form.tier)) throw new HttpError(400, `Plan must be one of ${TIERS.join(", ")}`);
      try {
        await assertDowngradeConfirmed(database.db, me.id, form.tier, form.confirmHiddenBooks === "yes");
      } catch (err) {
        if (!(err instanceof DomainError) || err.code !== "books_would_be_hidden") throw err;
        const name = PLANS[form.tier].name;
        return c.html(
          page(
            `Switch to ${name}?`,
            `<div class="banner">TEST MODE — no real payment</div><h1>Switch to ${esc(name)}?</h1><p>${esc(err.message)}</p>
<p>Here the first ${PLANS[form.tier].bookLimit} in your book order stay; choose others under Books in your dashboard at any time.</p>
<form method="post" action="/billing/sandbox/portal"><input type="hidden" name="action" value="change-plan"><input type="hidden" name="tier" value="${esc(form.tier)}"><input type="hidden" name="confirmHiddenBooks" value="yes"><button type="submit">Switch to ${esc(name)}</button></form>
<p><a href="/billing/sandbox/portal">Keep my plan</a></p>`,
          ),
          409,
        );
      }
      await changePlan(database.db, provider, me.id, form.tier);
    } else if (form.action === "cancel") {
      await cancelSubscription(database.db, provider, me.id);
    } else if (form.action === "reactivate") {
      const { checkoutUrl } = await reactivateSubscription(database.db, provider, env.appOrigin, me);
      if (checkoutUrl) return c.redirect(checkoutUrl, 303);
    } else {
      throw new HttpError(400, "Unknown action");
    }
    return c.redirect("/billing/sandbox/portal?done=1", 303);
  });

  return r;
}
