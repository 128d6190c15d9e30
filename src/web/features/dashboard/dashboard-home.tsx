// 'Dashboard Overview': the live site, the plan and its use, and what the author can do about
// either. The numbers come from the server (subscription status and book capacity); nothing
// here decides what the plan allows.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  AlertTriangle,
  BookOpen,
  ExternalLink,
  Eye,
  Globe,
  Mail,
  Newspaper,
  PenLine,
  RefreshCw,
  Settings,
  UserRound,
} from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useLoaderData, useSearchParams } from "react-router";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, MONTHLY_PRICE_MINOR, nextTier, PLANS } from "../../../shared/plans.ts";
import type { SiteVisibility } from "../../../shared/schemas/site-status.ts";
import { EmptySections } from "../../components/empty-sections.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import {
  CAPACITY_KEY,
  type Capacity,
  fetchSiteStatus,
  type OnboardingState,
  SITE_STATUS_KEY,
  type SubscriptionDetails,
  siteHost,
  siteUrl,
  startCheckout,
  useCapacity,
} from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/api.ts";
import { useSession } from "../../lib/auth-client.ts";
import { cn } from "../../lib/utils.ts";
import {
  openBillingPortal,
  portalFailureMessage,
  useCancelSubscription,
  useChangePlan,
  useChecklistDismissal,
  useProfile,
  useReactivate,
  useSubscription,
} from "./dashboard-api.ts";
import { FirstBookCard } from "./first-book-card.tsx";
import { PaymentReturnBanner, usePaymentReturn } from "./payment-return.tsx";

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

export function DashboardHome() {
  const state = useLoaderData() as OnboardingState;
  const { data: session } = useSession();
  const qc = useQueryClient();
  const subscription = useSubscription();
  const capacity = useCapacity();
  // Live or not is the public renderer's own rule, asked of the server (ADR 052).
  const siteStatus = useQuery({ queryKey: SITE_STATUS_KEY, queryFn: fetchSiteStatus, enabled: Boolean(state.website) });
  const visibility = siteStatus.data?.visibility;
  const [params] = useSearchParams();
  const checkoutCancelled = params.get("checkout") === "cancelled";
  // Throws when the check fails, so the payment-return flow can retry and the refresh button can say so.
  const refreshAll = async () => {
    const res = await subscription.refetch();
    if (res.error) throw res.error;
    await qc.invalidateQueries({ queryKey: CAPACITY_KEY });
    await qc.invalidateQueries({ queryKey: SITE_STATUS_KEY });
  };
  const payment = usePaymentReturn(refreshAll);
  const profile = useProfile();
  // Kept once shown, so the card can say where the new book is after the capacity moves to 1.
  const [firstBookOpen, setFirstBookOpen] = useState(false);
  useEffect(() => {
    if (capacity.data?.used === 0) setFirstBookOpen(true);
  }, [capacity.data?.used]);
  const [checklistHidden, hideChecklist] = useChecklistDismissal(siteStatus.data);

  const firstName = session?.user.name.split(" ")[0] ?? state.name.split(" ")[0] ?? "";
  const website = state.website;
  const host = website?.subdomain ? siteHost(website.subdomain, state.sitesDomain) : null;
  const liveHost = website?.customDomain && website.customDomainVerified ? website.customDomain : host;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Dashboard Overview</h1>
          <p className="mt-1 text-sm text-slate-600">
            {firstName ? `Welcome, ${firstName}` : "Welcome"}
            {session ? (
              <>
                {" · "}
                <span data-testid="user-email">{session.user.email}</span>
              </>
            ) : null}
          </p>
        </div>
        {website?.subdomain && liveHost ? (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="secondary" size="sm">
              <a href={`/author/${website.subdomain}`}>
                <Eye aria-hidden="true" className="h-4 w-4" /> Preview Locally
              </a>
            </Button>
            {/* Only when readers can see it: before checkout or after expiry they get another page. */}
            {visibility === "live" ? (
              <Button asChild size="sm">
                <a href={siteUrl(liveHost)} target="_blank" rel="noopener noreferrer">
                  <ExternalLink aria-hidden="true" className="h-4 w-4" /> View Live Site
                </a>
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>

      <PaymentReturnBanner phase={payment.phase} onDismiss={payment.dismiss} />
      {checkoutCancelled && !payment.activated ? <CheckoutCancelled visibility={visibility} /> : null}

      {subscription.data && !subscription.data.checkoutCompleted ? (
        <FinishCheckout subscription={subscription.data} />
      ) : null}

      {/* First, where there is no book yet: a book readers can buy is what the site is for. */}
      {firstBookOpen && website?.subdomain ? (
        <FirstBookCard
          authorName={profile.data?.name ?? state.name}
          website={website}
          sitesDomain={state.sitesDomain}
          visibility={visibility}
        />
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <LiveSiteCard
          websiteName={website?.websiteName ?? ""}
          liveHost={liveHost}
          website={website}
          visibility={visibility}
        />
        {subscription.isError ? (
          <Card>
            <CardContent>
              <p role="alert" className="text-sm text-red-700">
                Failed to load dashboard data. {errorMessage(subscription.error)}
              </p>
              <Button className="mt-4" variant="secondary" size="sm" onClick={() => subscription.refetch()}>
                Try again
              </Button>
            </CardContent>
          </Card>
        ) : subscription.data ? (
          <PlanCard subscription={subscription.data} capacity={capacity.data} onRefresh={refreshAll} />
        ) : (
          <Card aria-busy="true" className="min-h-56 animate-pulse bg-slate-100" />
        )}
      </div>

      {siteStatus.data ? (
        <EmptySections
          status={siteStatus.data}
          checklist={
            profile.data && !checklistHidden
              ? {
                  facts: {
                    profile: profile.data,
                    domainConnected: Boolean(website?.customDomain && website.customDomainVerified),
                  },
                  onDismiss: hideChecklist,
                }
              : undefined
          }
        />
      ) : null}

      <section aria-labelledby="quick-actions">
        <h2 id="quick-actions" className="text-lg font-semibold text-slate-900">
          Quick actions
        </h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <QuickAction
            to="/dashboard/books"
            icon={BookOpen}
            title="Books"
            text="Add books, covers, prices and retailer links."
          />
          <QuickAction
            to="/dashboard/bio"
            icon={PenLine}
            title="Bio"
            text="The story readers see on your About page."
          />
          <QuickAction
            to="/dashboard/blog"
            icon={Newspaper}
            title="Blog"
            text="News, events and thoughts for your readers."
          />
          <QuickAction
            to="/dashboard/contact"
            icon={Mail}
            title="Contact"
            text="Where messages go, anti-spam and your social links."
          />
          <QuickAction
            to="/dashboard/settings"
            icon={Settings}
            title="Site Settings"
            text="Your site's name, pages, fonts and colours."
          />
          <QuickAction
            to="/account"
            icon={UserRound}
            title="Account"
            text="Password, two-factor sign-in and devices."
          />
          {website?.subdomain ? (
            <QuickAction
              to={`/author/${website.subdomain}`}
              icon={Eye}
              title="Preview"
              text="See your site as readers do."
              external
            />
          ) : null}
        </div>
      </section>
    </div>
  );
}

function FinishCheckout({ subscription }: { subscription: SubscriptionDetails }) {
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
function CheckoutCancelled({ visibility }: { visibility: SiteVisibility | undefined }) {
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

const SITE_HEADING: Record<SiteVisibility, string> = {
  live: "Your site is live",
  awaiting_checkout: "Your site opens after checkout",
  offline: "Your site is offline",
};

function LiveSiteCard({
  websiteName,
  liveHost,
  website,
  visibility,
}: {
  websiteName: string;
  liveHost: string | null;
  website: OnboardingState["website"];
  /** The renderer's rule from the server; undefined while it loads (nothing claimed meanwhile). */
  visibility: SiteVisibility | undefined;
}) {
  const pendingDomain = website?.customDomain && !website.customDomainVerified;
  const published = visibility === "live";
  return (
    <Card className="bg-gradient-to-br from-brand-600 to-brand-500 text-white">
      <CardContent className="space-y-4">
        <div className="flex items-center gap-2">
          <Globe aria-hidden="true" className="h-5 w-5" />
          <h2 className="text-lg font-semibold" data-testid="site-visibility">
            {visibility ? SITE_HEADING[visibility] : "Your site"}
          </h2>
        </div>
        <p className="text-sm text-white/90">{websiteName}</p>
        {liveHost ? (
          <p className="break-all font-mono text-base font-semibold" data-testid="site-address">
            {liveHost}
          </p>
        ) : (
          <p className="text-sm">Your site address appears here once your domain is connected.</p>
        )}
        {visibility === "awaiting_checkout" ? (
          <p className="rounded-lg bg-white/15 px-3 py-2 text-sm">
            Until you add your card, readers see a 'coming soon' page. Preview it as it will be with Preview Locally.
          </p>
        ) : null}
        {visibility === "offline" ? (
          <p className="rounded-lg bg-white/15 px-3 py-2 text-sm">
            Readers see a 'temporarily unavailable' page. Everything is kept: reactivate your plan to bring it back.
          </p>
        ) : null}
        {pendingDomain ? (
          <p className="rounded-lg bg-white/15 px-3 py-2 text-sm">
            {website?.customDomain} is waiting for its DNS records; until then your site answers at the address above.
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {liveHost && published ? (
            <Button asChild variant="secondary" size="sm">
              <a href={siteUrl(liveHost)} target="_blank" rel="noopener noreferrer">
                Visit Website <ExternalLink aria-hidden="true" className="h-4 w-4" />
              </a>
            </Button>
          ) : null}
          <Button asChild variant="ghost" size="sm" className="text-white hover:bg-white/15">
            <Link to="/dashboard/domain">
              {website?.customDomain
                ? pendingDomain
                  ? "Connect your domain"
                  : "Manage domain"
                : "Use your own domain"}
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function usageTone(percent: number) {
  if (percent >= 100) return { bar: "bg-red-500", label: "text-red-700" };
  if (percent >= 80) return { bar: "bg-orange-500", label: "text-orange-700" };
  return { bar: "bg-emerald-500", label: "text-emerald-700" };
}

function PlanCard({
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
  const limit = capacity?.limit ?? plan.bookLimit;
  const used = capacity?.used ?? 0;
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  const tone = usageTone(percent);
  // Books kept off the site by the plan: then the count of books and of books shown differ, and
  // a percentage of the plan would read over 100 (ADR 054).
  const keptOff = capacity?.hiddenByPlan ?? 0;
  const shown = capacity?.shown ?? 0;
  const [refreshing, setRefreshing] = useState(false);
  const [dialog, setDialog] = useState<null | "upgrade" | "cancel">(null);
  const changePlan = useChangePlan();
  const cancel = useCancelSubscription();
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

        <div>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="text-slate-700">Books</span>
            {capacity ? (
              <span className={cn("text-right font-medium", tone.label)} data-testid="books-used">
                {keptOff > 0 || used > limit
                  ? `${used} books, ${shown} shown on your site (${plan.name} plan allows ${limit})`
                  : `${used} of ${limit} used (${percent}%)`}
              </span>
            ) : (
              // Never a made-up "0 used" while the count is on its way.
              <span className="text-slate-500">Counting your books...</span>
            )}
          </div>
          <div
            className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-100"
            role="progressbar"
            aria-label="Books used of your plan"
            aria-valuemin={0}
            aria-valuemax={limit}
            aria-valuenow={Math.min(used, limit)}
          >
            <div className={cn("h-full rounded-full transition-all", tone.bar)} style={{ width: `${percent}%` }} />
          </div>
          {keptOff > 0 ? (
            <p role="alert" className="mt-3 flex gap-2 text-sm text-red-800">
              <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              <span>
                {keptOff} of your books {keptOff === 1 ? "is" : "are"} not shown on your site because the {plan.name}{" "}
                plan covers {limit}.{" "}
                <Link to="/dashboard/books" className="font-medium underline">
                  Choose which books are shown
                </Link>
                , or upgrade.
              </span>
            </p>
          ) : percent >= 100 ? (
            <p className="mt-3 flex gap-2 text-sm text-red-800">
              <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              You have reached your plan's limit of {limit} books.
            </p>
          ) : percent >= 80 ? (
            <p className="mt-3 flex gap-2 text-sm text-orange-800">
              <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              You are close to your plan's limit of {limit} books.
            </p>
          ) : null}
        </div>

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
        <ConfirmDialog
          open={dialog === "upgrade"}
          title={`Upgrade to ${PLANS[upgradeTo].name}`}
          confirmLabel={`Upgrade to ${PLANS[upgradeTo].name}`}
          busyLabel="Upgrading..."
          busy={changePlan.isPending}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            try {
              await changePlan.mutateAsync(upgradeTo);
              toast.success(`You are now on ${PLANS[upgradeTo].name}.`);
              setDialog(null);
            } catch (err) {
              toast.error(errorMessage(err));
            }
          }}
        >
          <p>
            Show up to {PLANS[upgradeTo].bookLimit} books for{" "}
            {formatMoney(MONTHLY_PRICE_MINOR[upgradeTo][subscription.currency], subscription.currency)} a month
            {subscription.status === "trial" ? ", from the end of your trial" : ""}.
          </p>
          <p>
            <Link to="/dashboard/plan" className="font-medium text-brand-600 underline">
              Compare all plans
            </Link>
          </p>
        </ConfirmDialog>
      ) : null}
      <ConfirmDialog
        open={dialog === "cancel"}
        title="Cancel your subscription?"
        confirmLabel="Cancel subscription"
        cancelLabel="Keep my plan"
        busyLabel="Cancelling..."
        tone="danger"
        busy={cancel.isPending}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          try {
            await cancel.mutateAsync();
            toast.success("Your subscription is cancelled. Your site stays live until the end of the period.");
            setDialog(null);
          } catch (err) {
            toast.error(errorMessage(err));
          }
        }}
      >
        <p>
          Your site stays live until the end of the period you have paid for, then readers see a 'temporarily
          unavailable' page. Your books and settings are kept, and you can reactivate at any time.
        </p>
      </ConfirmDialog>
    </Card>
  );
}

function QuickAction({
  to,
  icon: Icon,
  title,
  text,
  external,
}: {
  to: string;
  icon: typeof BookOpen;
  title: string;
  text: string;
  external?: boolean;
}) {
  const className =
    "block h-full rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-300 hover:shadow focus-visible:outline-2 focus-visible:outline-brand-500";
  const body = (
    <>
      <Icon aria-hidden="true" className="h-5 w-5 text-brand-600" />
      <p className="mt-3 font-semibold text-slate-900">{title}</p>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
    </>
  );
  return external ? (
    <a href={to} className={className}>
      {body}
    </a>
  ) : (
    <Link to={to} className={className}>
      {body}
    </Link>
  );
}
