// Support Management: the tickets in the server's queue order (open by priority, then the longest
// waiting), with a live open count (server-sent events).
import { useState } from "react";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketPriority, type TicketStatus } from "../../../shared/enums.ts";
import { ADMIN_MESSAGES, type Ticket } from "../../../shared/schemas/admin.ts";
import { TicketMessages } from "../../components/ticket-messages.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Options } from "../../components/ui/options.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useLiveOpenCount, useRespond, useTicketStatus, useTickets } from "./admin-api.ts";
import { Badge, LoadFailed, PRIORITY_TONE, selectClass, TICKET_TONE } from "./admin-ui.tsx";
import { DEMO_TICKETS } from "./demo-data.ts";

export function SupportTab({ demo }: { demo: boolean }) {
  const [status, setStatus] = useState<TicketStatus | "">("");
  const [priority, setPriority] = useState<TicketPriority | "">("");
  const filter = { ...(status ? { status } : {}), ...(priority ? { priority } : {}) };
  const query = useTickets(filter, !demo);
  const live = useLiveOpenCount(!demo);
  const tickets = demo
    ? DEMO_TICKETS.filter((t) => (!status || t.status === status) && (!priority || t.priority === priority))
    : query.data?.tickets;
  const open = demo ? DEMO_TICKETS.filter((t) => t.status === "open").length : (live ?? query.data?.openCount ?? 0);

  return (
    <div className="space-y-4">
      <h2 className="text-xl font-semibold text-slate-900">Support Management</h2>
      <div aria-live="polite">
        {open > 0 ? (
          <Alert tone="warning" data-testid="open-tickets">
            {open === 1 ? "1 open ticket needs an answer." : `${open} open tickets need an answer.`}
          </Alert>
        ) : (
          <Alert tone="success" data-testid="open-tickets">
            No open tickets.
          </Alert>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <Filter label="Status" value={status} options={TICKET_STATUSES} onChange={setStatus} />
        <Filter label="Priority" value={priority} options={TICKET_PRIORITIES} onChange={setPriority} />
      </div>
      {query.isError && !demo ? <LoadFailed what="the tickets" onRetry={() => query.refetch()} /> : null}
      {tickets === undefined ? (
        <div className="h-32 animate-pulse rounded-2xl border border-slate-200 bg-white" aria-busy="true" />
      ) : tickets.length === 0 ? (
        <Card>
          <CardContent className="text-center text-sm text-slate-600">{ADMIN_MESSAGES.noTickets}</CardContent>
        </Card>
      ) : (
        <ul className="space-y-3">
          {tickets.map((t) => (
            <TicketCard key={t.id} t={t} demo={demo} />
          ))}
        </ul>
      )}
    </div>
  );
}

function TicketCard({ t, demo }: { t: Ticket; demo: boolean }) {
  const respond = useRespond();
  const change = useTicketStatus();
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const statusCallbacks = (done: "closed" | "reopened") => ({
    onSuccess: () => {
      setError(null);
      toast.success(`Ticket ${done}`);
    },
    onError: (err: unknown) => {
      setError(errorMessage(err));
      toast.error(`Ticket not ${done}: ${errorMessage(err)}`);
    },
  });
  return (
    <li>
      <Card>
        <details className="group">
          <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-3 px-6 py-4">
            <span>
              <span className="font-medium text-slate-900">{t.subject}</span>
              <span className="ml-2 text-sm text-slate-600">
                {t.name ? `${t.name} · ` : ""}
                {t.email} · {formatDate(t.createdAt)}
              </span>
            </span>
            <span className="flex gap-2">
              <Badge tone={PRIORITY_TONE[t.priority]}>{t.priority}</Badge>
              <Badge tone={TICKET_TONE[t.status]}>{t.status}</Badge>
            </span>
          </summary>
          <div className="space-y-4 border-t border-slate-100 px-6 py-4 text-sm">
            <p className="whitespace-pre-wrap text-slate-800">{t.message}</p>
            <TicketMessages messages={t.messages} staff="Support" author="Author" />
            {t.messages.length === 0 && t.adminResponse ? (
              <div className="rounded-lg bg-brand-50 p-3">
                <p className="mb-1 text-xs font-medium text-slate-500">Support</p>
                <p className="whitespace-pre-wrap text-slate-800">{t.adminResponse}</p>
              </div>
            ) : null}
            {error ? <Alert tone="error">{error}</Alert> : null}
            {t.status === "open" ? (
              <form
                className="space-y-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  respond.mutate(
                    { id: t.id, response: draft },
                    {
                      onSuccess: () => {
                        setDraft("");
                        setError(null);
                        toast.success("Response sent");
                      },
                      onError: (err) => {
                        setError(errorMessage(err));
                        toast.error(`Response not sent: ${errorMessage(err)}`);
                      },
                    },
                  );
                }}
              >
                <label className="block text-sm font-medium text-slate-700" htmlFor={`respond-${t.id}`}>
                  Response
                </label>
                <textarea
                  id={`respond-${t.id}`}
                  rows={4}
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
                />
                <Button type="submit" size="sm" disabled={demo || respond.isPending}>
                  {respond.isPending ? "Sending..." : "Respond"}
                </Button>
              </form>
            ) : null}
            <div className="flex gap-2">
              {/* Keyed by what it does: after the change it is another button (focus leaves it), as before. */}
              <Button
                key={t.status !== "closed" ? "close" : "reopen"}
                size="sm"
                variant="secondary"
                disabled={demo || change.isPending}
                onClick={() =>
                  t.status !== "closed"
                    ? change.mutate({ id: t.id, action: "close" }, statusCallbacks("closed"))
                    : change.mutate({ id: t.id, action: "reopen" }, statusCallbacks("reopened"))
                }
              >
                {t.status !== "closed" ? "Close" : "Reopen"}
              </Button>
            </div>
          </div>
        </details>
      </Card>
    </li>
  );
}

/** A filter of the ticket list: one of `options`, or "" for all. */
function Filter<T extends string>(props: {
  label: string;
  value: T | "";
  options: readonly T[];
  onChange: (value: T | "") => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
      {props.label}
      <select className={selectClass} value={props.value} onChange={(e) => props.onChange(e.target.value as T | "")}>
        <option value="">All</option>
        <Options values={props.options} />
      </select>
    </label>
  );
}
