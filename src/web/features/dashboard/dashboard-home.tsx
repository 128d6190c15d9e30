// 'Dashboard Overview': the live site, the plan and its use, and what the author can do about
// either. The numbers come from the server (subscription status and book capacity); nothing
// here decides what the plan allows.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Eye } from "lucide-react";
import { useEffect, useState } from "react";
import { useLoaderData, useSearchParams } from "react-router";
import { EmptySections } from "../../components/empty-sections.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import {
  CAPACITY_KEY,
  fetchSiteStatus,
  type OnboardingState,
  SITE_STATUS_KEY,
  siteHost,
  siteUrl,
  useCapacity,
} from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/api.ts";
import { useSession } from "../../lib/auth-client.ts";
import { CheckoutCancelled, FinishCheckout } from "./checkout-notices.tsx";
import { useChecklistDismissal, useProfile, useSubscription } from "./dashboard-api.ts";
import { FirstBookCard } from "./first-book-card.tsx";
import { PaymentReturnBanner, usePaymentReturn } from "./payment-return.tsx";
import { PlanCard } from "./plan-card.tsx";
import { QuickActions } from "./quick-actions.tsx";
import { LiveSiteCard } from "./site-card.tsx";

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
  const [checklistHidden, hideChecklist, showChecklist] = useChecklistDismissal(siteStatus.data);

  const firstName = session?.user.name.split(" ")[0] ?? state.name.split(" ")[0] ?? "";
  const website = state.website;
  const host = website?.subdomain ? siteHost(website.subdomain, state.sitesDomain) : null;
  const liveHost = website?.customDomain && website.customDomainVerified ? website.customDomain : host;

  return (
    <div className="space-y-8">
      <PageHeading
        title="Dashboard Overview"
        description={
          <>
            {firstName ? `Welcome, ${firstName}` : "Welcome"}
            {session ? (
              <>
                {" · "}
                <span data-testid="user-email">{session.user.email}</span>
              </>
            ) : null}
          </>
        }
      >
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
      </PageHeading>

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
            profile.data
              ? {
                  facts: {
                    profile: profile.data,
                    domainConnected: Boolean(website?.customDomain && website.customDomainVerified),
                  },
                  hidden: checklistHidden,
                  onDismiss: hideChecklist,
                  onShow: showChecklist,
                }
              : undefined
          }
        />
      ) : null}

      <QuickActions subdomain={website?.subdomain ?? undefined} />
    </div>
  );
}
