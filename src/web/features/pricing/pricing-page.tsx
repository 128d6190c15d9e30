// /dashboard/plan: the signed-in author's plan screen (the public /pricing page is the marketing
// site's and sends authors here). An account without a website goes through the setup wizard
// with the plan preselected; an author who has not paid yet goes to checkout; a paying author
// switches plan; when the new plan would hide books, they first choose the ones that stay.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLoaderData, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { CURRENCIES, type Currency, TIERS, type Tier } from "../../../shared/enums.ts";
import { PlanCard, POPULAR_TIER } from "../../../shared/plan-card.tsx";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, PLANS, TRIAL_DAYS } from "../../../shared/plans.ts";
import { Button } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { Options } from "../../components/ui/options.tsx";
import {
  type OnboardingState,
  SUBSCRIPTION_KEY,
  type SubscriptionDetails,
  startCheckout,
} from "../../lib/account-state.ts";
import { ApiError, client, errorMessage, read } from "../../lib/api.ts";
import { KeepBooksDialog } from "./keep-books-dialog.tsx";

export type PricingViewer = { kind: "account"; state: OnboardingState; subscription: SubscriptionDetails | null };

function buttonAction(viewer: PricingViewer): "wizard" | "checkout" | "change" {
  if (!viewer.state.website) return "wizard";
  return viewer.subscription?.checkoutCompleted ? "change" : "checkout";
}

export function PricingPage() {
  const viewer = useLoaderData() as PricingViewer;
  const navigate = useNavigate();
  const subscription = viewer.kind === "account" ? viewer.subscription : null;
  const action = buttonAction(viewer);
  // The currency chosen on the public pricing page, else the one the author pays in.
  const [params] = useSearchParams();
  const asked = params.get("currency");
  const [currency, setCurrency] = useState<Currency>(
    asked && (CURRENCIES as readonly string[]).includes(asked)
      ? (asked as Currency)
      : (subscription?.currency ?? "GBP"),
  );
  const [pending, setPending] = useState<Tier | null>(null);
  const qc = useQueryClient();

  // A plan that would hide books readers see asks first: the server says how many, and the
  // author picks the ones that stay.
  const [hiding, setHiding] = useState<{ tier: Tier; message: string } | null>(null);

  const choose = useMutation({
    mutationFn: async ({ tier, keepVisible }: { tier: Tier; keepVisible?: string[] }) => {
      if (action === "checkout") {
        const { url } = await startCheckout(tier, currency);
        window.location.assign(url);
        return;
      }
      await read(client.billing["change-plan"].$post({ json: { tier, ...(keepVisible ? { keepVisible } : {}) } }));
      // The plan, the limit and which books are shown have all moved.
      await Promise.all([
        qc.invalidateQueries({ queryKey: SUBSCRIPTION_KEY }),
        qc.invalidateQueries({ queryKey: ["books"] }),
      ]);
      setHiding(null);
      toast.success(`Your plan is now ${PLANS[tier].name}.`);
      navigate("/dashboard");
    },
    onMutate: ({ tier }) => setPending(tier),
    onError: (err, { tier }) => {
      if (err instanceof ApiError && err.code === "books_would_be_hidden") setHiding({ tier, message: err.message });
      else toast.error(errorMessage(err));
    },
    onSettled: () => setPending(null),
  });

  return (
    <div className="min-h-screen bg-white">
      <header className="mx-auto flex max-w-6xl items-center justify-between px-6 py-6">
        <Logo to="/dashboard" />
        <nav aria-label="Account" className="flex items-center gap-2">
          <Button asChild variant="ghost">
            <Link to="/dashboard">Dashboard</Link>
          </Button>
        </nav>
      </header>

      <main className="mx-auto max-w-6xl px-6 pb-20">
        <section aria-labelledby="pricing-title" className="pt-8 text-center">
          <h1 id="pricing-title" className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            Choose your plan
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
            Every plan has every feature; plans differ only in how many books you show. Try any plan free for{" "}
            {TRIAL_DAYS} days.
          </p>
          <div className="mt-8 inline-flex items-center gap-3">
            <label htmlFor="pricing-currency" className="text-sm font-medium text-slate-700">
              Currency
            </label>
            <select
              id="pricing-currency"
              value={currency}
              onChange={(e) => setCurrency(e.target.value as Currency)}
              className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              <Options values={CURRENCIES} />
            </select>
          </div>
        </section>

        <section aria-label="Plans" className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {TIERS.map((tier) => {
            const variant = tier === POPULAR_TIER ? "primary" : "secondary";
            return (
              <PlanCard key={tier} tier={tier} currency={currency}>
                {action === "change" && subscription?.tier === tier ? (
                  <Button className="w-full" variant="secondary" disabled>
                    Current plan
                  </Button>
                ) : action === "wizard" ? (
                  <Button asChild className="w-full" variant={variant}>
                    <Link to={`/onboarding?tier=${tier}&currency=${currency}`}>Start Free Trial</Link>
                  </Button>
                ) : (
                  <Button
                    className="w-full"
                    variant={variant}
                    disabled={pending !== null}
                    onClick={() => choose.mutate({ tier })}
                  >
                    {pending === tier
                      ? "Loading..."
                      : action === "change"
                        ? `Switch to ${PLANS[tier].name}`
                        : "Start Free Trial"}
                  </Button>
                )}
              </PlanCard>
            );
          })}
        </section>
        <p className="mt-6 text-center text-sm text-slate-600" data-testid="domain-addon">
          Your own domain, like janeauthor.com, on any plan: +
          {formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[currency], currency)}/month. Every site also keeps its free address.
        </p>

        <p className="mt-10 text-center text-sm text-slate-600">
          Every plan has every feature.{" "}
          <a href="/pricing" className="font-medium text-brand-600 underline">
            Compare with other ways to build a site
          </a>
        </p>
      </main>

      <KeepBooksDialog
        ask={hiding}
        busy={choose.isPending}
        onClose={() => setHiding(null)}
        onConfirm={(tier, keepVisible) => choose.mutate({ tier, keepVisible })}
      />
    </div>
  );
}
