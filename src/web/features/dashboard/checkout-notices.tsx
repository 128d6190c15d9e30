// What the dashboard says about checkout: a card still to add, or a checkout just left unpaid.
import { useState } from "react";
import { toast } from "sonner";
import type { SiteVisibility } from "../../../shared/schemas/site-status.ts";
import { Button } from "../../components/ui/button.tsx";
import { type SubscriptionDetails, startCheckout } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/api.ts";

export function FinishCheckout({ subscription }: { subscription: SubscriptionDetails }) {
  const [busy, setBusy] = useState(false);
  async function go() {
    setBusy(true);
    try {
      const { url } = await startCheckout(subscription.tier, subscription.currency);
      window.location.assign(url);
    } catch (err) {
      toast.error(errorMessage(err));
      setBusy(false);
    }
  }
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p>
        <span className="font-semibold">One step left:</span> add a card to start your free trial. Nothing is charged
        until your trial ends.
      </p>
      <Button size="sm" onClick={go} disabled={busy}>
        {busy ? "Loading..." : "Enter payment details"}
      </Button>
    </div>
  );
}

/** Back from a checkout left without paying: what happened, what readers see, what to do. */
export function CheckoutCancelled({ visibility }: { visibility: SiteVisibility | undefined }) {
  return (
    <div
      role="status"
      data-testid="checkout-cancelled"
      className="rounded-xl border border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-800"
    >
      <p className="font-semibold">Checkout cancelled: no card was added and nothing was charged.</p>
      <p className="mt-0.5">
        {visibility === "live"
          ? "Your site and plan are as they were."
          : visibility === "offline"
            ? "Your site stays offline until you reactivate your plan below. Your books and settings are kept."
            : "Your site is saved, but readers see a 'coming soon' page until you add a card. Enter your payment details when you are ready: your free trial starts then."}
      </p>
    </div>
  );
}
