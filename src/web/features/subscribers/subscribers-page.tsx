// 'Subscribers': the author's own mailing list — the readers who signed up on the site and the ones
// imported from another provider. Searched by address, filtered by status (every status in the
// shared list, with its count), 50 at a time; a reader can be removed (after a confirm step), and
// another provider's CSV export imported once the author confirms these readers asked for mail.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Download, Trash2, Upload } from "lucide-react";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { formatDate } from "../../../shared/dates.ts";
import { SUBSCRIBER_STATUSES } from "../../../shared/enums.ts";
import type { NewsletterSubscriber } from "../../../shared/schemas/newsletter-settings.ts";
import type { SubscribersQuery } from "../../../shared/schemas/subscribers.ts";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { Field } from "../../components/ui/field.tsx";
import { PagerButtons } from "../../components/ui/pager-buttons.tsx";
import { errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/utils.ts";
import { deleteSubscriber, SUBSCRIBERS_KEY, useSubscriberPage } from "./subscribers-api.ts";
import { ImportPanel } from "./subscribers-import.tsx";

type Status = NewsletterSubscriber["status"];

const count = (n: number) => n.toLocaleString("en-GB");

/** The words for a status; one added to the shared list later shows with its own name. */
const STATUS_LABELS: Partial<Record<string, string>> = {
  confirmed: "Confirmed",
  pending: "Waiting to confirm",
  unsubscribed: "Unsubscribed",
};
const statusLabel = (s: string) => STATUS_LABELS[s] ?? s.charAt(0).toUpperCase() + s.slice(1).replaceAll("_", " ");

const statusOf = (raw: string | null): Status | undefined =>
  (SUBSCRIBER_STATUSES as readonly string[]).includes(raw ?? "") ? (raw as Status) : undefined;

export function SubscribersPage() {
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get("status"));
  const q = params.get("q") ?? "";
  const page = Math.max(1, Math.floor(Number(params.get("page")) || 1));
  const query: SubscribersQuery = { page, ...(q ? { q } : {}), ...(status ? { status } : {}) };
  const list = useSubscriberPage(query);
  const [importing, setImporting] = useState(false);

  const go = (change: { q?: string; status?: Status | undefined; page?: number }) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(change)) {
          if (v === undefined || v === "" || (k === "page" && v === 1)) next.delete(k);
          else next.set(k, String(v));
        }
        if (!("page" in change)) next.delete("page");
        return next;
      },
      { replace: true },
    );

  const data = list.data;
  // Past the last page (its last reader removed, or an old link): the last page that has rows.
  const beyond = data && data.subscribers.length === 0 && data.total > 0 && data.page > 1;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the answer says so
  useEffect(() => {
    if (beyond) go({ page: lastPage });
  }, [beyond, lastPage]);
  const all = data ? Object.values(data.counts).reduce((a, b) => a + b, 0) : 0;
  const from = data && data.total > 0 ? (data.page - 1) * data.pageSize + 1 : 0;
  const to = data ? Math.min(data.total, data.page * data.pageSize) : 0;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Subscribers</h1>
          <p className="mt-1 text-sm text-slate-600">
            The readers on your own mailing list: those who signed up on your site and those you imported.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setImporting((v) => !v)} aria-expanded={importing}>
            <Upload aria-hidden="true" className="h-4 w-4" /> Import CSV
          </Button>
          <Button asChild variant="secondary" size="sm">
            <a href="/api/newsletter/subscribers.csv" download>
              <Download aria-hidden="true" className="h-4 w-4" /> Export CSV
            </a>
          </Button>
        </div>
      </div>

      {importing ? <ImportPanel onClose={() => setImporting(false)} /> : null}

      <Card>
        <CardContent className="space-y-4 px-4 sm:px-6">
          <fieldset className="flex flex-wrap gap-2" data-testid="status-filter">
            <legend className="sr-only">Show</legend>
            <StatusChip label="All" n={data ? all : undefined} on={!status} onClick={() => go({ status: undefined })} />
            {SUBSCRIBER_STATUSES.map((s) => (
              <StatusChip
                key={s}
                label={statusLabel(s)}
                n={data?.counts[s]}
                on={status === s}
                onClick={() => go({ status: s })}
              />
            ))}
          </fieldset>
          <SearchBox initial={q} onSearch={(text) => go({ q: text })} />

          {list.isError ? (
            <Alert tone="error">{errorMessage(list.error)}</Alert>
          ) : !data ? (
            <p className="text-sm text-slate-600">Loading...</p>
          ) : data.subscribers.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="no-subscribers">
              {all === 0
                ? "No one has signed up yet. Readers who sign up on your Newsletter page appear here, and so do readers you import."
                : "No subscriber matches this search."}
            </p>
          ) : (
            <>
              <SubscriberList rows={data.subscribers} />
              <nav
                aria-label="Pages"
                className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4"
              >
                <p className="text-sm text-slate-600" data-testid="subscriber-range">
                  {count(from)}–{count(to)} of {count(data.total)}
                </p>
                <div className="flex gap-2">
                  <PagerButtons page={data.page} last={lastPage} onPage={(page) => go({ page })} />
                </div>
              </nav>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function StatusChip(props: { label: string; n: number | undefined; on: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={props.on}
      onClick={props.onClick}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm font-medium",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500",
        props.on
          ? "border-brand-600 bg-brand-600 text-white"
          : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
      )}
    >
      {props.label}
      {props.n !== undefined ? (
        <span className={cn("tabular-nums", props.on ? "text-white/90" : "text-slate-500")}>{count(props.n)}</span>
      ) : null}
    </button>
  );
}

/** Searches as the author types, a moment after the last key. */
function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(initial);
  useEffect(() => {
    const t = text.trim();
    if (t === initial) return;
    const timer = setTimeout(() => onSearch(t), 300);
    return () => clearTimeout(timer);
  }, [text, initial, onSearch]);
  return (
    <Field
      label="Search by address"
      type="search"
      value={text}
      maxLength={320}
      placeholder="name@example.com"
      onChange={(e) => setText(e.target.value)}
    />
  );
}

function SubscriberList({ rows }: { rows: NewsletterSubscriber[] }) {
  const qc = useQueryClient();
  const [target, setTarget] = useState<NewsletterSubscriber | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteSubscriber(id),
    onSuccess: async () => {
      setTarget(null);
      setError(null);
      await qc.invalidateQueries({ queryKey: SUBSCRIBERS_KEY });
    },
    onError: (err) => {
      setTarget(null);
      setError(errorMessage(err));
    },
  });
  return (
    <>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <ul className="divide-y divide-slate-100" data-testid="subscriber-list">
        {rows.map((s) => (
          <li key={s.id} className="flex items-start gap-3 py-3">
            <div className="min-w-0 flex-1">
              <p className="break-all font-medium text-slate-900">{s.email}</p>
              <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
                {/* On a phone the badges go under the address, which keeps the whole width. */}
                <span className="contents sm:hidden">
                  <Badges s={s} />
                </span>
                <span>
                  {s.importedAt ? (
                    <>Imported {formatDate(s.importedAt)}</>
                  ) : (
                    <>
                      Signed up {formatDate(s.createdAt)}
                      {s.signupPage ? (
                        <>
                          {" "}
                          on <span className="break-all font-mono">{s.signupPage}</span>
                        </>
                      ) : null}
                    </>
                  )}
                </span>
              </div>
            </div>
            <div className="hidden shrink-0 items-center gap-2 sm:flex">
              <Badges s={s} />
            </div>
            <Button
              variant="ghost"
              size="sm"
              className="shrink-0"
              aria-label={`Remove ${s.email}`}
              onClick={() => setTarget(s)}
            >
              <Trash2 aria-hidden="true" className="h-4 w-4" />
            </Button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={target !== null}
        title="Remove this subscriber?"
        confirmLabel="Remove"
        cancelLabel="Cancel"
        busyLabel="Removing..."
        busy={remove.isPending}
        tone="danger"
        onConfirm={() => target && remove.mutate(target.id)}
        onClose={() => setTarget(null)}
      >
        <p className="break-all font-medium text-slate-900">{target?.email}</p>
        <p>
          They are taken off your list and get no more newsletters. If they sign up again, they confirm by email as a
          new reader.
        </p>
      </ConfirmDialog>
    </>
  );
}

function Badges({ s }: { s: NewsletterSubscriber }) {
  return (
    <>
      <StatusBadge status={s.status} />
      {s.importedAt ? (
        <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-800">Imported</span>
      ) : null}
    </>
  );
}

function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cn(
        "whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold",
        status === "confirmed" ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-700",
      )}
    >
      {statusLabel(status)}
    </span>
  );
}
