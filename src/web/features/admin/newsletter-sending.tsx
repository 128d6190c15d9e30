// An account's newsletters in the back office (issue 32, ADR 070): how its copies fared in the
// last 30 days, and Pause/Resume sending with a reason (audited on the server).
import { useState } from "react";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import type { AdminUser } from "../../../shared/schemas/admin.ts";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useNewsletterSending, useSetNewsletterPaused } from "./admin-api.ts";
import { Badge } from "./admin-ui.tsx";

export function NewsletterSendingButton({ u, demo, self }: { u: AdminUser; demo: boolean; self: boolean }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const figures = useNewsletterSending(u.id, open && !demo);
  const change = useSetNewsletterPaused();
  const paused = figures.data?.paused ?? null;
  const canChange = !self && figures.isSuccess;
  const close = () => {
    setOpen(false);
    setReason("");
  };
  return (
    <>
      <Button size="sm" variant="secondary" disabled={demo} onClick={() => setOpen(true)}>
        Newsletters
      </Button>
      <ConfirmDialog
        open={open}
        title={`Newsletters of ${u.name}`}
        confirmLabel={paused ? "Resume sending" : "Pause sending"}
        busyLabel={paused ? "Resuming..." : "Pausing..."}
        busy={change.isPending || !canChange}
        tone={paused ? "primary" : "danger"}
        onClose={close}
        onConfirm={() => {
          if (!reason.trim()) {
            toast.error("Please give a reason");
            return;
          }
          change.mutate(
            { id: u.id, paused: !paused, reason },
            {
              onSuccess: () => {
                toast.success(paused ? `${u.email} can send again` : `${u.email}'s sending is paused`);
                close();
              },
              onError: (err) => toast.error(errorMessage(err)),
            },
          );
        }}
      >
        {figures.isPending ? (
          <p aria-busy="true">Loading...</p>
        ) : figures.isError ? (
          <p className="text-red-700">{errorMessage(figures.error)}</p>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
              <dt className="text-slate-500">Sent ({figures.data.days} days)</dt>
              <dd className="font-medium text-slate-900">{figures.data.sent.toLocaleString("en-GB")}</dd>
              <dt className="text-slate-500">Bounced</dt>
              <dd className="font-medium text-slate-900">{figures.data.bounced.toLocaleString("en-GB")}</dd>
              <dt className="text-slate-500">Bounce rate</dt>
              <dd className="font-medium text-slate-900">
                {figures.data.bounceRatePercent === null ? "–" : `${figures.data.bounceRatePercent}%`}
              </dd>
              <dt className="text-slate-500">Waiting</dt>
              <dd className="font-medium text-slate-900">{figures.data.waiting.toLocaleString("en-GB")}</dd>
              <dt className="text-slate-500">Last send</dt>
              <dd className="font-medium text-slate-900">
                {figures.data.lastSentAt ? formatDate(figures.data.lastSentAt) : "Never"}
              </dd>
            </dl>
            <p className="text-sm text-slate-500">Newsletter copies and release alert mails, counted together.</p>
            {paused ? (
              <p>
                <Badge tone="red">Sending paused</Badge> since {formatDate(paused.at)}
                {paused.reason ? `: ${paused.reason}` : ""}. Queued mails wait until it is resumed.
              </p>
            ) : (
              <p>Paused, nothing new is sent or started and queued mails wait; resuming lets them go.</p>
            )}
            {self ? (
              <p>You cannot pause or resume your own sending.</p>
            ) : (
              <label className="block text-sm">
                <span className="font-medium text-slate-900">Reason (required, kept in the audit log)</span>
                <textarea
                  className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
                  rows={2}
                  maxLength={500}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                />
              </label>
            )}
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
