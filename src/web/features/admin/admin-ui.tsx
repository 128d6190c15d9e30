// Small pieces the back office's tabs share: figure cards, badges, money and copy.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { toast } from "sonner";
import type { Currency } from "../../../shared/enums.ts";
import { formatMoney } from "../../../shared/plans.ts";
import { cn } from "../../lib/utils.ts";

export const gbp = (minor: number) => formatMoney(minor, "GBP");
export const money = (minor: number, currency: Currency) => formatMoney(minor, currency);
export const count = (n: number) => n.toLocaleString("en-GB");

export function copyText(value: string, message: string) {
  navigator.clipboard
    .writeText(value)
    .then(() => toast.success(message))
    .catch(() => toast.error("Could not copy: select the text and copy it instead."));
}

const TONES = {
  slate: "bg-slate-100 text-slate-700",
  sky: "bg-sky-100 text-sky-800",
  emerald: "bg-emerald-100 text-emerald-800",
  amber: "bg-amber-100 text-amber-900",
  red: "bg-red-100 text-red-800",
  orange: "bg-orange-100 text-orange-800",
  violet: "bg-violet-100 text-violet-800",
} as const;

export function Badge({ tone = "slate", children }: { tone?: keyof typeof TONES; children: ReactNode }) {
  return (
    <span className={cn("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium", TONES[tone])}>
      {children}
    </span>
  );
}

export const STATUS_TONE = {
  trial: "sky",
  active: "emerald",
  past_due: "amber",
  cancelled: "orange",
  expired: "red",
} as const;

export const PRIORITY_TONE = { urgent: "red", high: "orange", normal: "sky", low: "slate" } as const;
export const TICKET_TONE = { open: "amber", responded: "sky", closed: "slate" } as const;

export function Loading({ label }: { label: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-busy="true">
      <span className="sr-only" role="status">
        {label}
      </span>
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="h-24 animate-pulse rounded-2xl border border-slate-200 bg-white" />
      ))}
    </div>
  );
}

/** Spec: other admin fetch failures are only logged; we say so, and offer a retry. */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-2xl border border-slate-200 bg-white p-6 text-sm text-slate-600">
      Could not load {what}.{" "}
      <button type="button" className="font-medium text-brand-600 underline" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** What a tab of figures shows until they are in: placeholders, or why they failed with Try again. */
export function NotLoaded({ query, what }: { query: UseQueryResult<unknown>; what: string }) {
  return query.isError ? (
    <LoadFailed what={what} onRetry={() => query.refetch()} />
  ) : (
    <Loading label={`Loading ${what}`} />
  );
}

export const selectClass =
  "h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-800 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";
