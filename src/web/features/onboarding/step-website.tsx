import { CheckCircle2, Globe, Info, Link2, Loader2, Lock, RotateCw, XCircle } from "lucide-react";
import type { ReactNode } from "react";
import type { Currency } from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney } from "../../../shared/plans.ts";
import { normaliseDomain, SUBDOMAIN_MAX, SUBDOMAIN_MIN } from "../../../shared/schemas/onboarding.ts";
import { Field } from "../../components/ui/field.tsx";
import { Label } from "../../components/ui/label.tsx";
import { cn } from "../../lib/utils.ts";
import { bindText } from "./bind-text.ts";
import {
  type Availability,
  type AvailabilityReason,
  cleanSubdomain,
  type Issue,
  type WizardValues,
} from "./wizard-model.ts";

type Props = {
  values: WizardValues;
  issue: Issue | null;
  sitesDomain: string;
  availability: Availability;
  availabilityReason: AvailabilityReason | undefined;
  onRetryCheck: () => void;
  onChange: (patch: Partial<WizardValues>) => void;
};

export function StepWebsite({
  values,
  issue,
  sitesDomain,
  availability,
  availabilityReason,
  onRetryCheck,
  onChange,
}: Props) {
  const free = values.domainOption === "free";
  const ownDomain = normaliseDomain(values.ownDomain);
  const address = values.subdomain ? `${values.subdomain}.${sitesDomain}` : `yourname.${sitesDomain}`;
  const placeholderAddress = !values.subdomain;

  return (
    <div className="space-y-6">
      <Field
        id="websiteName"
        label="Website Name *"
        {...bindText({ values, issue, onChange }, "websiteName")}
        maxLength={100}
        placeholder="Jane Author Books"
        hint="Shown in your site's header and in search results."
      />

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-700">Your web address</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <DomainOptionCard
            checked={free}
            onSelect={() => onChange({ domainOption: "free" })}
            value="free"
            title="Free subdomain"
            badge="Included"
            description={`yourname.${sitesDomain}`}
            icon={<Globe aria-hidden="true" className="h-5 w-5" />}
          />
          <DomainOptionCard
            checked={!free}
            onSelect={() => onChange({ domainOption: "custom" })}
            value="custom"
            title="Use my own domain"
            badge={`+${formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[values.currency], values.currency)}/month`}
            description="e.g. janeauthor.com"
            icon={<Link2 aria-hidden="true" className="h-5 w-5" />}
          />
        </div>
      </fieldset>

      <div className="space-y-2">
        <Label htmlFor="subdomain">Choose Your URL *</Label>
        <div
          className={cn(
            "flex h-10 overflow-hidden rounded-lg border bg-white shadow-sm focus-within:ring-2",
            availability === "taken" || availability === "error" || issue?.field === "subdomain"
              ? "border-red-400 focus-within:border-red-500 focus-within:ring-red-500/20"
              : availability === "available"
                ? "border-emerald-400 focus-within:border-emerald-500 focus-within:ring-emerald-500/20"
                : "border-slate-300 focus-within:border-brand-500 focus-within:ring-brand-500/30",
          )}
        >
          <input
            id="subdomain"
            value={values.subdomain}
            onChange={(e) => onChange({ subdomain: cleanSubdomain(e.target.value) })}
            aria-invalid={issue?.field === "subdomain" || availability === "taken" ? true : undefined}
            aria-describedby="subdomain-status subdomain-rules"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={SUBDOMAIN_MAX}
            placeholder="janeauthor"
            className="min-w-0 flex-1 bg-transparent px-3 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none"
          />
          <span className="flex items-center border-l border-slate-200 bg-slate-50 px-3 text-sm text-slate-500">
            .{sitesDomain}
          </span>
        </div>
        <AvailabilityStatus state={availability} reason={availabilityReason} onRetry={onRetryCheck} />
        <p id="subdomain-rules" className="text-xs text-slate-500">
          {SUBDOMAIN_MIN} to {SUBDOMAIN_MAX} lower-case letters and digits; anything else is left out.
        </p>
      </div>
      {free ? null : (
        <div className="space-y-4">
          <Field
            id="ownDomain"
            label="Your Domain Name *"
            {...bindText({ values, issue, onChange }, "ownDomain")}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={253}
            placeholder="janeauthor.com"
          />
          <DomainNextSteps domain={ownDomain} address={address} currency={values.currency} />
        </div>
      )}

      <div className="rounded-xl border border-slate-200 bg-slate-50 p-4">
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Your website address</p>
        <div className="mt-2 flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-sm">
          <Lock aria-hidden="true" className="h-4 w-4 shrink-0 text-emerald-600" />
          <span
            data-testid="address-preview"
            className={cn(
              "min-w-0 font-mono text-sm wrap-anywhere",
              placeholderAddress ? "text-slate-500" : "text-slate-900",
            )}
          >
            {address}
          </span>
        </div>
        <p className="mt-3 flex items-start gap-2 text-sm text-slate-600">
          <Info aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" />
          <span>
            <strong className="font-semibold text-slate-800">Choose carefully:</strong> your subdomain cannot be changed
            later. {free ? "You can connect your own domain at any time." : "Your own domain is added to it."}
          </span>
        </p>
      </div>
    </div>
  );
}

function DomainOptionCard({
  checked,
  onSelect,
  value,
  title,
  badge,
  description,
  icon,
}: {
  checked: boolean;
  onSelect: () => void;
  value: string;
  title: string;
  badge: string;
  description: string;
  icon: ReactNode;
}) {
  return (
    <label
      className={cn(
        "relative flex cursor-pointer gap-3 rounded-xl border bg-white p-4 shadow-sm transition",
        "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500",
        checked ? "border-brand-500 ring-1 ring-brand-500" : "border-slate-200 hover:border-slate-300",
      )}
    >
      <input
        type="radio"
        name="domainOption"
        value={value}
        checked={checked}
        onChange={onSelect}
        className="mt-1 h-4 w-4 accent-brand-600"
      />
      <span className="min-w-0 flex-1">
        <span className="flex items-center justify-between gap-2">
          <span className="flex items-center gap-2 font-medium text-slate-900">
            <span className={checked ? "text-brand-600" : "text-slate-400"}>{icon}</span>
            {title}
          </span>
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{badge}</span>
        </span>
        <span className="mt-1 block truncate text-sm text-slate-500">{description}</span>
      </span>
    </label>
  );
}

const REASON_TEXT: Record<AvailabilityReason, string> = {
  taken: "This subdomain is already taken",
  reserved: "This subdomain is reserved. Please choose another one.",
  too_short: `Use at least ${SUBDOMAIN_MIN} letters or digits`,
  too_long: `Use at most ${SUBDOMAIN_MAX} letters or digits`,
};

function AvailabilityStatus({
  state,
  reason,
  onRetry,
}: {
  state: Availability;
  reason: AvailabilityReason | undefined;
  onRetry: () => void;
}) {
  return (
    <p
      id="subdomain-status"
      data-testid="subdomain-status"
      data-state={state}
      aria-live="polite"
      className="flex min-h-5 items-center gap-1.5 text-sm"
    >
      {state === "unchecked" ? (
        <span className="text-slate-500">Type at least {SUBDOMAIN_MIN} letters or digits to check availability</span>
      ) : state === "checking" ? (
        <span className="flex items-center gap-1.5 text-slate-600">
          <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> Checking availability...
        </span>
      ) : state === "available" ? (
        <span className="flex items-center gap-1.5 font-medium text-emerald-700">
          <CheckCircle2 aria-hidden="true" className="h-4 w-4" /> Available
        </span>
      ) : state === "taken" ? (
        <span className="flex items-center gap-1.5 font-medium text-red-700">
          <XCircle aria-hidden="true" className="h-4 w-4" /> {REASON_TEXT[reason ?? "taken"]}
        </span>
      ) : (
        <span className="flex items-center gap-1.5 text-red-700">
          <XCircle aria-hidden="true" className="h-4 w-4" /> Error checking availability
          <button
            type="button"
            onClick={onRetry}
            className="ml-1 inline-flex items-center gap-1 rounded font-medium text-brand-600 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            <RotateCw aria-hidden="true" className="h-3.5 w-3.5" /> Try again
          </button>
        </span>
      )}
    </p>
  );
}

function DomainNextSteps({ domain, address, currency }: { domain: string; address: string; currency: Currency }) {
  return (
    <div className="rounded-xl border border-brand-100 bg-brand-50/60 p-4 text-sm text-slate-700">
      <p className="font-semibold text-slate-900">Connecting {domain || "your domain"}</p>
      <p className="mt-1">
        Once your site is set up, <strong>Settings → Domain</strong> lists the two DNS records to add at your domain
        provider — a TXT record that proves the domain is yours, and the record that points it to your site — with a
        Verify button that tells you what is still missing. Until it is connected, your site answers at {address}.
      </p>
      <p className="mt-3 text-slate-600">
        The custom domain costs {formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[currency], currency)} a month on top of your
        plan.
      </p>
    </div>
  );
}
