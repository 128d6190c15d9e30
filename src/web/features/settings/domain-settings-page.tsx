// 'Domain': the author's own domain name for their site. Enter it, add the DNS records shown
// (each with a copy button), press Verify, and read in plain words what is still wrong until it
// is verified. Removing it puts the site back on its free address at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Clock, Copy, ExternalLink } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney } from "../../../shared/plans.ts";
import {
  type DnsRecord,
  DOMAIN_MESSAGES,
  type DomainCheck,
  type DomainState,
  domainInputSchema,
} from "../../../shared/schemas/domain.ts";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { ConfirmRemoval } from "../../components/ui/confirm-dialog.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Input } from "../../components/ui/input.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { fetchSiteStatus, fetchSubscription, SITE_STATUS_KEY, SUBSCRIPTION_KEY } from "../../lib/account-state.ts";
import { ApiError, client, errorMessage, read } from "../../lib/api.ts";
import { setServerFieldError, useZodForm } from "../../lib/use-zod-form.ts";
import { SettingsLoader } from "./settings-loader.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

const DOMAIN_KEY = ["domain"] as const;

export function DomainSettingsPage() {
  const domain = useQuery({ queryKey: DOMAIN_KEY, queryFn: () => read(client.domain.$get()) });
  const subscription = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription });
  const currency = subscription.data?.currency;
  return (
    <>
      <SettingsTabs />
      <div className="space-y-6">
        <PageHeading
          title="Custom Domain"
          description="Use your own domain name, like www.janeauthor.com, for your site. Your free address keeps working and sends readers to your domain once it is connected."
          more={
            currency && (
              <p className="mt-1 text-sm text-slate-600">
                A custom domain adds {formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[currency], currency)} a month to your plan
                while it is on your site.
              </p>
            )
          }
        />
        <SettingsLoader query={domain} height="h-64">
          {(data) => <DomainSection state={data} />}
        </SettingsLoader>
      </div>
    </>
  );
}

function DomainSection({ state }: { state: DomainState }) {
  const qc = useQueryClient();
  const [check, setCheck] = useState<DomainCheck | null>(
    state.lastCheck && !state.lastCheck.ok ? state.lastCheck : null,
  );
  const form = useZodForm(domainInputSchema, { domain: state.domain ?? "" });
  const { register, handleSubmit, formState, watch } = form;
  const typed = watch("domain");
  const saved = (next: DomainState) => qc.setQueryData(DOMAIN_KEY, next);

  const start = useMutation({
    mutationFn: (domain: string) => read(client.domain.$put({ json: { domain } })),
    onSuccess: (next) => {
      saved(next);
      setCheck(null);
      toast.success(DOMAIN_MESSAGES.started);
    },
    onError: (err) => {
      if (!setServerFieldError(form, err)) {
        toast.error(DOMAIN_MESSAGES.startFailed, { description: errorMessage(err) });
      }
    },
  });
  const verify = useMutation({
    mutationFn: () => read(client.domain.verify.$post()),
    onSuccess: ({ state: next, check: result }) => {
      saved(next);
      setCheck(result.ok ? null : result);
      if (result.ok) toast.success(DOMAIN_MESSAGES.updated);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === "domain_taken") setCheck(null);
      toast.error(DOMAIN_MESSAGES.updateFailed, { description: errorMessage(err) });
    },
  });
  const remove = useMutation({
    mutationFn: () => read(client.domain.$delete()),
    onSuccess: (next) => {
      saved(next);
      setCheck(null);
      form.reset({ domain: "" });
      toast.success(DOMAIN_MESSAGES.removed);
    },
    onError: (err) => toast.error(DOMAIN_MESSAGES.updateFailed, { description: errorMessage(err) }),
  });

  // Verify checks the saved domain: a new one in the field is saved (started) first.
  const onVerify = handleSubmit(async ({ domain }) => {
    if (domain !== state.domain) {
      try {
        await start.mutateAsync(domain);
      } catch {
        return;
      }
    }
    verify.mutate();
  });
  const busy = start.isPending || verify.isPending || remove.isPending;

  return (
    <div className="space-y-6">
      <LiveAddress state={state} />
      <Card>
        <CardHeader>
          <CardTitle>Your domain</CardTitle>
          <CardDescription>
            Enter the address readers should type. You can change or remove it at any time.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={handleSubmit(({ domain }) => start.mutate(domain))} className="space-y-4">
            <Field
              alert
              label="Domain"
              hint="For example www.janeauthor.com or janeauthor.com — no http://, no path."
              error={formState.errors.domain?.message}
            >
              {(wiring) => (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                  <Input
                    {...wiring}
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="www.janeauthor.com"
                    className="sm:max-w-sm"
                    {...register("domain")}
                  />
                  {state.status === "verified" && state.domain === typed.trim().toLowerCase() && <VerifiedBadge />}
                  {state.status === "pending" && state.domain === typed.trim().toLowerCase() && <PendingBadge />}
                </div>
              )}
            </Field>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="secondary" disabled={busy || !typed.trim()}>
                {start.isPending ? "Saving…" : "Save domain"}
              </Button>
              <Button type="button" onClick={onVerify} disabled={busy || !typed.trim()}>
                {verify.isPending ? "Checking DNS…" : "Verify"}
              </Button>
              {state.domain && (
                <ConfirmRemoval
                  trigger={(ask) => (
                    <Button type="button" variant="dangerGhost" disabled={busy} onClick={ask}>
                      Remove domain
                    </Button>
                  )}
                  removal={remove}
                  title={`Remove ${state.domain}?`}
                  confirmLabel="Remove domain"
                  busyLabel="Removing…"
                >
                  <p>
                    Your site goes back to its free address{state.subdomainUrl ? ` (${state.subdomainUrl})` : ""}{" "}
                    straight away, and readers who type your domain will no longer reach it.
                  </p>
                </ConfirmRemoval>
              )}
            </div>
          </form>
          {check && (
            <Alert tone="warning" className="mt-5">
              <p className="font-medium">Not connected yet</p>
              <p className="mt-1">{check.message}</p>
            </Alert>
          )}
        </CardContent>
      </Card>

      {state.domain && state.records.length > 0 && (
        <DnsRecords records={state.records} verified={state.status === "verified"} />
      )}
    </div>
  );
}

function LiveAddress({ state }: { state: DomainState }) {
  // "Live" only when readers get the site's pages: the renderer's own rule (ADR 052).
  const status = useQuery({ queryKey: SITE_STATUS_KEY, queryFn: fetchSiteStatus });
  const live = status.data?.visibility === "live";
  if (!state.liveUrl) return null;
  const host = state.liveUrl.replace(/^https?:\/\//, "");
  return (
    <Alert tone={state.status === "verified" ? "success" : "info"}>
      {live ? "Your site is live at" : "Your site's address is"}{" "}
      <a href={state.liveUrl} target="_blank" rel="noreferrer" className="font-medium underline wrap-anywhere">
        {host}
        <ExternalLink aria-hidden="true" className="ml-1 inline-block h-3.5 w-3.5 align-[-0.125em]" />
      </a>
      {state.status === "pending" && state.domain ? ` — ${state.domain} will take over once it is verified.` : ""}
    </Alert>
  );
}

function VerifiedBadge() {
  return (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-semibold text-emerald-800">
      <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5" />
      Verified
    </span>
  );
}

function PendingBadge() {
  return (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900">
      <Clock aria-hidden="true" className="h-3.5 w-3.5" />
      Waiting for DNS
    </span>
  );
}

const PURPOSE: Record<DnsRecord["purpose"], string> = {
  verification: "Proves the domain is yours",
  traffic: "Sends readers to your site",
};

function DnsRecords({ records, verified }: { records: DnsRecord[]; verified: boolean }) {
  const copy = (value: string) =>
    navigator.clipboard
      .writeText(value)
      .then(() => toast.success(DOMAIN_MESSAGES.copied))
      .catch(() => toast.error("Could not copy: select the text and copy it instead."));
  return (
    <Card>
      <CardHeader>
        <CardTitle>DNS records</CardTitle>
        <CardDescription>
          {verified
            ? "Keep these records at your domain provider: they keep your domain connected."
            : "Add these records at your domain provider (where you bought the domain), then press Verify. New records can take up to an hour to appear."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                <th className="py-2 pr-4 font-medium">Type</th>
                <th className="py-2 pr-4 font-medium">Name</th>
                <th className="py-2 pr-4 font-medium">Value</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Copy</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr
                  key={`${r.type}-${r.name}-${r.value}`}
                  className="border-b border-slate-100 align-top last:border-0"
                >
                  <td className="py-3 pr-4 font-mono font-semibold text-slate-900">{r.type}</td>
                  <td className="py-3 pr-4">
                    <span className="font-mono break-all text-slate-900">{r.name}</span>
                    <span className="mt-0.5 block text-xs text-slate-500">{PURPOSE[r.purpose]}</span>
                  </td>
                  <td className="py-3 pr-4 font-mono break-all text-slate-900">{r.value}</td>
                  <td className="py-3">
                    <Button
                      type="button"
                      size="sm"
                      variant="secondary"
                      aria-label={`Copy the ${r.type} record's value`}
                      onClick={() => copy(r.value)}
                    >
                      <Copy aria-hidden="true" className="h-3.5 w-3.5" />
                      Copy
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {records.some((r) => r.type === "ALIAS") && (
          <p className="mt-3 text-xs text-slate-500">
            ALIAS is called ANAME or "flattened CNAME" by some providers. If yours has none, use www. in front of your
            domain instead.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
