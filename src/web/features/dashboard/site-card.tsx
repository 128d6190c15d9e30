// The dashboard's site card: whether readers can see the site, at which address, and the domain.
import { ExternalLink, Globe } from "lucide-react";
import { Link } from "react-router";
import type { SiteVisibility } from "../../../shared/schemas/site-status.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { type OnboardingState, siteUrl } from "../../lib/account-state.ts";

const SITE_HEADING: Record<SiteVisibility, string> = {
  live: "Your site is live",
  awaiting_checkout: "Your site opens after checkout",
  offline: "Your site is offline",
};

export function LiveSiteCard({
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
