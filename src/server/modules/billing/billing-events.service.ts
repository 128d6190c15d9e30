// The payment provider's webhooks: each event applied once, in the transaction that records it.
import type { Db, Tx } from "../../../db/client.ts";
import type { SubscriptionStatus } from "../../../shared/enums.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./billing.queries.ts";
import { recordPaidInvoice, UnprocessableBillingEvent } from "./invoices.service.ts";
import type { BillingEvent, SubscriptionSnapshot } from "./provider.ts";
import { fitBooks } from "./subscription-terms.ts";

export { UnprocessableBillingEvent } from "./invoices.service.ts";

/** Our state for a provider status; 'cancel at period end' is our 'cancelled'. */
export function statusFromStripe(s: SubscriptionSnapshot): SubscriptionStatus {
  if ((s.status === "trialing" || s.status === "active") && s.cancelAtPeriodEnd) return "cancelled";
  switch (s.status) {
    case "trialing":
      return "trial";
    case "active":
      return "active";
    case "past_due":
    case "unpaid":
    case "incomplete":
      return "past_due";
    default:
      return "expired";
  }
}

async function applySnapshot(tx: Tx, snap: SubscriptionSnapshot, fallbackUserId: string | null, now: Date) {
  const byProvider = await q.findSubscriptionByProviderId(tx, snap.id);
  const userId = byProvider?.userId ?? fallbackUserId ?? snap.userId;
  if (!userId) return;
  if (!(await q.userExists(tx, userId))) return;
  if (!byProvider) {
    // The end of an earlier Stripe subscription must not overwrite the one that replaced it.
    const current = await q.findSubscription(tx, userId);
    if (
      current?.providerSubscriptionId &&
      current.providerSubscriptionId !== snap.id &&
      statusFromStripe(snap) === "expired"
    ) {
      return;
    }
  }
  const values = {
    status: statusFromStripe(snap),
    provider: "stripe",
    providerSubscriptionId: snap.id,
    ...(snap.customerId ? { providerCustomerId: snap.customerId } : {}),
    ...(snap.tier ? { tier: snap.tier } : {}),
    ...(snap.currency ? { currency: snap.currency } : {}),
    ...(snap.customDomain !== null ? { customDomainAddon: snap.customDomain } : {}),
    trialEndsAt: snap.trialEnd,
    currentPeriodEnd: snap.currentPeriodEnd,
    cancelAtPeriodEnd: snap.cancelAtPeriodEnd,
    updatedAt: now,
  };
  const before = byProvider ?? (await q.findSubscription(tx, userId));
  await q.upsertSubscriptionFields(tx, userId, values);
  if (snap.tier) await fitBooks(tx, userId, before?.tier, snap.tier);
  await markSiteChanged(tx, userId);
}

/**
 * Our subscription an invoice's event (`what`) is about, once Stripe's live state, when the event
 * carries it, is applied: it names its owner even when the checkout event has not arrived yet.
 * One we do not know is an event we cannot process.
 */
async function invoiceSubscription(
  tx: Tx,
  subscriptionId: string,
  live: SubscriptionSnapshot | null,
  now: Date,
  what: string,
) {
  if (live) await applySnapshot(tx, live, null, now);
  const sub = await q.findSubscriptionByProviderId(tx, subscriptionId);
  if (!sub) throw new UnprocessableBillingEvent(`${what} is for an unknown subscription ${subscriptionId}`);
  return sub;
}

async function applyEvent(tx: Tx, e: BillingEvent, now: Date) {
  switch (e.kind) {
    case "checkout_completed":
      if (e.subscription) await applySnapshot(tx, e.subscription, e.userId, now);
      else if (e.userId && e.customerId) {
        await q.updateSubscription(tx, e.userId, {
          provider: "stripe",
          providerCustomerId: e.customerId,
          updatedAt: now,
        });
      }
      return;
    case "subscription_changed":
      await applySnapshot(tx, e.subscription, null, now);
      return;
    case "invoice_paid": {
      if (!e.subscriptionId) return;
      const sub = await invoiceSubscription(tx, e.subscriptionId, e.subscription, now, `invoice ${e.invoiceId}`);
      await recordPaidInvoice(tx, sub, {
        invoiceId: e.invoiceId,
        currency: e.currency,
        amountMinor: e.amountMinor,
        paidAt: e.created,
      });
      // Without Stripe's live state (it no longer has the subscription), a paid invoice at least
      // ends the dunning that a failed one started.
      if (!e.subscription && sub.status === "past_due") {
        await q.updateSubscription(tx, sub.userId, {
          status: sub.cancelAtPeriodEnd ? "cancelled" : "active",
          updatedAt: now,
        });
        await markSiteChanged(tx, sub.userId);
      }
      return;
    }
    case "payment_failed": {
      if (!e.subscriptionId) return;
      const sub = await invoiceSubscription(tx, e.subscriptionId, e.subscription, now, "a failed payment");
      if (!e.subscription && sub.status !== "expired") {
        // A late failure notice never revives an ended subscription.
        await q.updateSubscription(tx, sub.userId, { status: "past_due", updatedAt: now });
        await markSiteChanged(tx, sub.userId);
      }
      return;
    }
    case "ignored":
      return;
  }
}

export type UnprocessedEvent = { id: string; type: string; reason: string };

/**
 * Each event is applied once: its id goes into processed_webhook_events in the same
 * transaction as its effect, so a redelivery (or a concurrent duplicate) changes nothing.
 * A failure that a retry may cure (the database, Stripe's API) throws, the transaction rolls
 * back, and the caller answers 5xx for a retry. An event that can never apply is recorded as
 * unprocessable, changes nothing else, and is returned for the caller to report.
 */
export async function processBillingEvents(db: Db, events: BillingEvent[], provider: "stripe" | "sandbox") {
  let applied = 0;
  const unprocessable: UnprocessedEvent[] = [];
  for (const e of events) {
    try {
      await db.transaction(async (tx) => {
        if (!(await q.recordWebhookEvent(tx, { id: e.id, provider, type: e.type }))) return;
        await applyEvent(tx, e, new Date());
        applied++;
      });
    } catch (err) {
      if (!(err instanceof UnprocessableBillingEvent)) throw err;
      const recorded = await q.recordWebhookEvent(db, {
        id: e.id,
        provider,
        type: e.type,
        outcome: "unprocessable",
        detail: err.message,
      });
      if (recorded) unprocessable.push({ id: e.id, type: e.type, reason: err.message });
    }
  }
  return { applied, unprocessable };
}
