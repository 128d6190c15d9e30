// Every account, a page at a time from the server: search, filters, sort and page live in the
// URL (so a view can be shared and the back button works).
import { ExternalLink } from "lucide-react";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import {
  ROLES,
  type Role,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  TIERS,
  type Tier,
} from "../../../shared/enums.ts";
import { PLANS } from "../../../shared/plans.ts";
import { ADMIN_LIMITS, type AdminUser, USER_SORTS } from "../../../shared/schemas/admin.ts";
import { isPublished } from "../../../shared/schemas/site-status.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { Options } from "../../components/ui/options.tsx";
import { PagerButtons } from "../../components/ui/pager-buttons.tsx";
import { errorMessage } from "../../lib/api.ts";
import { type UsersParams, useBan, useChangeRole, usePasswordReset, useUsers } from "./admin-api.ts";
import { Badge, count, LoadFailed, STATUS_TONE, selectClass } from "./admin-ui.tsx";
import { DEMO_USERS } from "./demo-data.ts";
import { NewsletterSendingButton } from "./newsletter-sending.tsx";

const pick = <T extends string>(list: readonly T[], raw: string | null): T | undefined =>
  (list as readonly string[]).includes(raw ?? "") ? (raw as T) : undefined;

function paramsFrom(sp: URLSearchParams): UsersParams {
  const page = Number(sp.get("page"));
  return {
    q: sp.get("q") || undefined,
    status: pick(SUBSCRIPTION_STATUSES, sp.get("status")),
    tier: pick(TIERS, sp.get("tier")),
    sort: pick(USER_SORTS, sp.get("sort")) ?? "joined",
    order: sp.get("order") === "asc" ? "asc" : "desc",
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: ADMIN_LIMITS.usersPageSize,
  };
}

const CHECKOUT_NOT_COMPLETED = "Checkout not completed";

const th = "px-3 py-2 text-left text-xs font-medium text-slate-500 uppercase";
const td = "px-3 py-2 align-top text-sm text-slate-800";

export function UsersTab({ demo, superAdmin, me }: { demo: boolean; superAdmin: boolean; me: string }) {
  const [sp, setSp] = useSearchParams();
  const params = paramsFrom(sp);
  const query = useUsers(params, !demo);
  const data = demo ? DEMO_USERS : query.data;
  const [search, setSearch] = useState(params.q ?? "");

  function update(patch: Record<string, string | undefined>) {
    const next = new URLSearchParams(sp);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!("page" in patch)) next.delete("page");
    setSp(next, { replace: true });
  }

  // The search goes to the server a moment after typing stops.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the typed search changes
  useEffect(() => {
    if ((params.q ?? "") === search.trim()) return;
    const t = setTimeout(() => update({ q: search.trim() || undefined }), 300);
    return () => clearTimeout(t);
  }, [search]);

  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm font-medium text-slate-700">
          Search
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, email or subdomain"
            className="h-9 rounded-lg border border-slate-300 px-3 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Status
          <select
            className={selectClass}
            value={params.status ?? ""}
            onChange={(e) => update({ status: e.target.value })}
          >
            <option value="">All</option>
            <Options values={SUBSCRIPTION_STATUSES} label={(s) => s.replace("_", " ")} />
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Plan
          <select className={selectClass} value={params.tier ?? ""} onChange={(e) => update({ tier: e.target.value })}>
            <option value="">All</option>
            <Options values={TIERS} label={(t) => PLANS[t].name} />
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Sort
          <select
            className={selectClass}
            value={`${params.sort}:${params.order}`}
            onChange={(e) => {
              const [sort, order] = e.target.value.split(":");
              update({ sort, order });
            }}
          >
            <option value="joined:desc">Newest first</option>
            <option value="joined:asc">Oldest first</option>
            <option value="name:asc">Name A–Z</option>
            <option value="name:desc">Name Z–A</option>
            <option value="email:asc">Email A–Z</option>
          </select>
        </label>
      </div>
      {query.isError && !demo ? <LoadFailed what="the accounts" onRetry={() => query.refetch()} /> : null}
      <Card>
        <CardContent className="overflow-x-auto p-0">
          {/* Wide enough to read on a phone: the table scrolls inside its card instead. */}
          <table className="w-full min-w-[44rem]">
            <caption className="sr-only">Accounts</caption>
            <thead className="border-b border-slate-200">
              <tr>
                <th className={th}>Name</th>
                <th className={th}>Website</th>
                <th className={th}>Plan</th>
                <th className={th}>Joined</th>
                <th className={th}>Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" aria-busy={!data}>
              {data?.users.map((u) => (
                <UserRow key={u.id} u={u} demo={demo} superAdmin={superAdmin} me={me} />
              ))}
              {data && data.users.length === 0 ? (
                <tr>
                  <td className={td} colSpan={5}>
                    No accounts match.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </CardContent>
      </Card>
      {data ? (
        <nav aria-label="Pages" className="flex items-center justify-between text-sm text-slate-600">
          <span>
            {count(data.total)} account{data.total === 1 ? "" : "s"} · page {data.page} of {count(pages)}
          </span>
          <span className="flex gap-2">
            <PagerButtons page={data.page} last={pages} onPage={(page) => update({ page: String(page) })} />
          </span>
        </nav>
      ) : null}
    </div>
  );
}

function UserRow({ u, demo, superAdmin, me }: { u: AdminUser; demo: boolean; superAdmin: boolean; me: string }) {
  const role = useChangeRole();
  const ban = useBan();
  const reset = usePasswordReset();
  const [confirmBan, setConfirmBan] = useState(false);
  const self = u.id === me;
  // A 'trial' whose checkout never took a card: nothing will be charged and the site is not public.
  const unpaid = !isPublished(u);
  return (
    <tr>
      <td className={td}>
        <div className="font-medium text-slate-900">
          {u.name} {u.sample ? <Badge tone="amber">Demo</Badge> : null}{" "}
          {u.banned ? <Badge tone="red">Banned</Badge> : null}{" "}
          {u.role !== "user" ? <Badge tone="violet">{u.role === "super_admin" ? "Super admin" : "Admin"}</Badge> : null}
        </div>
        <div className="text-slate-600">{u.email}</div>
      </td>
      <td className={td}>
        {u.liveUrl ? (
          <a
            href={u.liveUrl}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 text-brand-600 hover:underline"
          >
            {u.websiteName ?? u.subdomain} <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
            <span className="sr-only">(opens the public site)</span>
          </a>
        ) : (
          <span className="text-slate-500">No website</span>
        )}
        {u.liveUrl ? <div className="text-xs break-all text-slate-500">{new URL(u.liveUrl).host}</div> : null}
      </td>
      <td className={td}>
        {u.tier && unpaid ? (
          <div className="space-y-1">
            <div>
              {PLANS[u.tier as Tier].name} <Badge tone="slate">{CHECKOUT_NOT_COMPLETED}</Badge>
            </div>
            <div className="text-xs text-slate-500">No card yet · site shows 'Coming soon'</div>
          </div>
        ) : u.tier ? (
          <div className="space-y-1">
            <div>
              {PLANS[u.tier as Tier].name}{" "}
              <Badge tone={STATUS_TONE[u.status as SubscriptionStatus] ?? "slate"}>{u.status}</Badge>
            </div>
            <div className="text-xs text-slate-500">
              {u.currency}
              {u.status === "trial" && u.trialEndsAt ? ` · trial ends ${formatDate(u.trialEndsAt)}` : ""}
              {u.status !== "trial" && u.currentPeriodEnd ? ` · period ends ${formatDate(u.currentPeriodEnd)}` : ""}
            </div>
          </div>
        ) : (
          <span className="text-slate-500">No plan</span>
        )}
      </td>
      <td className={td}>{formatDate(u.joinedAt)}</td>
      <td className={td}>
        <div className="flex flex-wrap items-center gap-2">
          {superAdmin && !self ? (
            <select
              aria-label={`Role of ${u.email}`}
              className={selectClass}
              value={u.role}
              disabled={role.isPending}
              onChange={(e) => {
                // Read now: the select is controlled, so by the answer it shows the old role again
                // until the list reloads.
                const next = e.target.value as Role;
                role.mutate(
                  { id: u.id, role: next },
                  {
                    onSuccess: () => toast.success(`${u.email} is now ${next}`),
                    onError: (err) => toast.error(`Role not changed: ${errorMessage(err)}`),
                  },
                );
              }}
            >
              <Options values={ROLES} />
            </select>
          ) : null}
          <Button
            size="sm"
            variant="secondary"
            disabled={demo || reset.isPending}
            onClick={() =>
              reset.mutate(u.id, {
                onSuccess: () => toast.success(`Password reset sent to ${u.email}`),
                onError: (err) => toast.error(errorMessage(err)),
              })
            }
          >
            Send password reset
          </Button>
          <NewsletterSendingButton u={u} demo={demo} self={self} />
          {self ? null : (
            <Button
              size="sm"
              variant={u.banned ? "secondary" : "dangerGhost"}
              disabled={demo || ban.isPending}
              onClick={() =>
                u.banned
                  ? ban.mutate(
                      { id: u.id, banned: false },
                      {
                        onSuccess: () => toast.success(`${u.email} is unbanned`),
                        onError: (err) => toast.error(`Not unbanned: ${errorMessage(err)}`),
                      },
                    )
                  : setConfirmBan(true)
              }
            >
              {u.banned ? "Unban" : "Ban"}
            </Button>
          )}
        </div>
        <ConfirmDialog
          open={confirmBan}
          title={`Ban ${u.name}?`}
          confirmLabel="Ban"
          busyLabel="Banning..."
          busy={ban.isPending}
          tone="danger"
          onClose={() => setConfirmBan(false)}
          onConfirm={() =>
            ban.mutate(
              { id: u.id, banned: true },
              {
                onSuccess: () => {
                  setConfirmBan(false);
                  toast.success(`${u.email} is banned`);
                },
                onError: (err) => toast.error(errorMessage(err)),
              },
            )
          }
        >
          <p>They are signed out everywhere, cannot sign in, and their website shows as unavailable.</p>
          <p>Nothing is deleted: unbanning restores the account and the site.</p>
        </ConfirmDialog>
      </td>
    </tr>
  );
}
