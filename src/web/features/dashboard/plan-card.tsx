// The dashboard's plan card: the plan, its status and price, the books it holds, and what the
// author can do (upgrade, manage, cancel, reactivate). The numbers come from the server.
import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, MONTHLY_PRICE_MINOR, nextTier, PLANS } from "../../../shared/plans.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import type { Capacity, SubscriptionDetails } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/utils.ts";
import { openBillingPortal, portalFailureMessage, useReactivate } from "./dashboard-api.ts";
import { CancelDialog, UpgradeDialog } from "./plan-dialogs.tsx";
import { BookUsage } from "./plan-usage.tsx";

const STATUS_LABEL: Record<string, { label: string; tone: string }> = {
  trial: { label: "Trial", tone: "bg-sky-100 text-sky-800" },
  active: { label: "Active", tone: "bg-emerald-100 text-emerald-800" },
  past_due: { label: "Payment due", tone: "bg-amber-100 text-amber-900" },
  cancelled: { label: "Cancelled", tone: "bg-slate-200 text-slate-800" },
  expired: { label: "Expired", tone: "bg-red-100 text-red-800" },
};

/** The spec: an unknown status displays as trial. */
const statusOf = (s: string | undefined) =>
  STATUS_LABEL[s ?? "trial"] ?? (STATUS_LABEL.trial as { label: string; tone: string });

export function PlanCard({
  subscription,
  capacity,
  onRefresh,
}: {
  subscription: SubscriptionDetails;
  capacity: Capacity | undefined;
  onRefresh: () => Promise<unknown>;
}) {
  const plan = PLANS[subscription.tier] ?? PLANS.mini;
  const status = statusOf(subscription.status);
  const upgradeTo = nextTier(plan.tier);
  const [refreshing, setRefreshing] = useState(false);
  const [dialog, setDialog] = useState<null | "upgrade" | "cancel">(null);
  const reactivate = useReactivate();
  const [portalBusy, setPortalBusy] = useState(false);
  const ended = subscription.status === "cancelled" || subscription.status === "expired";

  async function refresh() {
    setRefreshing(true);
    try {
      await onRefresh();
      toast.success("Subscription status refreshed!");
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setRefreshing(false);
    }
  }

  async function manage() {
    // Open the tab now, while the click still counts as the person's own action; a tab opened
    // after the request would be blocked as a pop-up.
    const tab = window.open("", "_blank");
    setPortalBusy(true);
    try {
      const url = await openBillingPortal();
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (err) {
      tab?.close();
      toast.error(portalFailureMessage(err));
    } finally {
      setPortalBusy(false);
    }
  }

  async function doReactivate() {
    try {
      const res = await reactivate.mutateAsync();
      if (res.checkoutUrl) window.location.assign(res.checkoutUrl);
      else toast.success("Welcome back! Your subscription is active again.");
    } catch (err) {
      toast.error(errorMessage(err));
    }
  }

  return (
    <Card>
      <CardContent className="space-y-5">
        <div className="flex items-start justify-between gap-3">
          <div>
            <p className="text-sm text-slate-600">Your plan</p>
            <h2 className="text-xl font-semibold text-slate-900" data-testid="plan-name">
              {plan.name}
            </h2>
            <p className="text-sm text-slate-600">
              {formatMoney(MONTHLY_PRICE_MINOR[plan.tier][subscription.currency], subscription.currency)} a month
              {subscription.customDomainAddon
                ? ` + ${formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[subscription.currency], subscription.currency)} custom domain`
                : ""}
            </p>
          </div>
          <div className="flex items-center gap-2">
            <span
              className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", status.tone)}
              data-testid="status-badge"
            >
              {status.label}
            </span>
            <Button
              variant="ghost"
              size="sm"
              onClick={refresh}
              disabled={refreshing}
              aria-label="Refresh subscription status"
            >
              <RefreshCw aria-hidden="true" className={cn("h-4 w-4", refreshing && "animate-spin")} />
            </Button>
          </div>
        </div>

        {subscription.status === "trial" && subscription.trialEndsAt ? (
          <p className="text-sm text-slate-700">
            Trial ends <strong data-testid="trial-end">{formatDate(subscription.trialEndsAt)}</strong>
          </p>
        ) : null}
        {subscription.status === "cancelled" && subscription.currentPeriodEnd ? (
          <p className="text-sm text-slate-700">
            Cancelled — your site stays live until <strong>{formatDate(subscription.currentPeriodEnd)}</strong>.
          </p>
        ) : null}
        {subscription.status === "expired" ? (
          <p role="alert" className="text-sm text-red-700">
            Your subscription has ended, so readers see a 'temporarily unavailable' page. Everything is kept: reactivate
            to bring your site back.
          </p>
        ) : null}
        {subscription.status === "past_due" ? (
          <p role="alert" className="text-sm text-amber-900">
            Your last payment did not go through. Update your card under Manage Subscription to keep your site live.
          </p>
        ) : null}

        <BookUsage plan={plan} capacity={capacity} />

        <div className="flex flex-wrap gap-2">
          {upgradeTo && !ended ? (
            <Button onClick={() => setDialog("upgrade")}>
              {subscription.status === "trial" ? "Upgrade Now" : `Upgrade to ${PLANS[upgradeTo].name}`}
            </Button>
          ) : null}
          {subscription.checkoutCompleted ? (
            <Button variant="secondary" onClick={manage} disabled={portalBusy}>
              {portalBusy ? "Opening..." : "Manage Subscription"}
            </Button>
          ) : null}
          {ended ? (
            <Button onClick={doReactivate} disabled={reactivate.isPending}>
              {reactivate.isPending ? "Reactivating..." : "Reactivate"}
            </Button>
          ) : subscription.checkoutCompleted ? (
            <Button variant="ghost" onClick={() => setDialog("cancel")}>
              Cancel subscription
            </Button>
          ) : null}
        </div>
      </CardContent>
      {upgradeTo ? (
        <UpgradeDialog
          to={upgradeTo}
          subscription={subscription}
          open={dialog === "upgrade"}
          onClose={() => setDialog(null)}
        />
      ) : null}
      <CancelDialog open={dialog === "cancel"} onClose={() => setDialog(null)} />
    </Card>
  );
}
