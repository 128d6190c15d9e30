// The plan card's two confirmations: upgrading to the next plan, and cancelling.
import { Link } from "react-router";
import { toast } from "sonner";
import type { Tier } from "../../../shared/enums.ts";
import { formatMoney, MONTHLY_PRICE_MINOR, PLANS } from "../../../shared/plans.ts";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import type { SubscriptionDetails } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/api.ts";
import { useCancelSubscription, useChangePlan } from "./dashboard-api.ts";

export function UpgradeDialog({
  to,
  subscription,
  open,
  onClose,
}: {
  to: Tier;
  subscription: SubscriptionDetails;
  open: boolean;
  onClose: () => void;
}) {
  const changePlan = useChangePlan();
  return (
    <ConfirmDialog
      open={open}
      title={`Upgrade to ${PLANS[to].name}`}
      confirmLabel={`Upgrade to ${PLANS[to].name}`}
      busyLabel="Upgrading..."
      busy={changePlan.isPending}
      onClose={onClose}
      onConfirm={async () => {
        try {
          await changePlan.mutateAsync(to);
          toast.success(`You are now on ${PLANS[to].name}.`);
          onClose();
        } catch (err) {
          toast.error(errorMessage(err));
        }
      }}
    >
      <p>
        Show up to {PLANS[to].bookLimit} books for{" "}
        {formatMoney(MONTHLY_PRICE_MINOR[to][subscription.currency], subscription.currency)} a month
        {subscription.status === "trial" ? ", from the end of your trial" : ""}.
      </p>
      <p>
        <Link to="/dashboard/plan" className="font-medium text-brand-600 underline">
          Compare all plans
        </Link>
      </p>
    </ConfirmDialog>
  );
}

export function CancelDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const cancel = useCancelSubscription();
  return (
    <ConfirmDialog
      open={open}
      title="Cancel your subscription?"
      confirmLabel="Cancel subscription"
      cancelLabel="Keep my plan"
      busyLabel="Cancelling..."
      tone="danger"
      busy={cancel.isPending}
      onClose={onClose}
      onConfirm={async () => {
        try {
          await cancel.mutateAsync();
          toast.success("Your subscription is cancelled. Your site stays live until the end of the period.");
          onClose();
        } catch (err) {
          toast.error(errorMessage(err));
        }
      }}
    >
      <p>
        Your site stays live until the end of the period you have paid for, then readers see a 'temporarily unavailable'
        page. Your books and settings are kept, and you can reactivate at any time.
      </p>
    </ConfirmDialog>
  );
}
