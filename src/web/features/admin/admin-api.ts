// The back office's view of /api/admin, typed by the route declarations. In demo mode (a
// signed-in non-admin) no query runs: the screens show demo-data.ts instead.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { z } from "zod";
import type { Currency, Role, TicketPriority, TicketStatus } from "../../../shared/enums.ts";
import type { usersQuerySchema } from "../../../shared/schemas/admin.ts";
import { client, read } from "../../lib/api.ts";

export const ADMIN_KEY = ["admin"] as const;
const key = (...parts: unknown[]) => [...ADMIN_KEY, ...parts] as const;

export function useAdminAccess() {
  return useQuery({ queryKey: key("access"), queryFn: () => read(client.admin.access.$get()), staleTime: 60_000 });
}

export const useOverview = (enabled: boolean) =>
  useQuery({ queryKey: key("overview"), queryFn: () => read(client.admin.overview.$get()), enabled });

export const useFinancial = (enabled: boolean) =>
  useQuery({ queryKey: key("financial"), queryFn: () => read(client.admin.financial.$get()), enabled });

export const useAnalytics = (enabled: boolean) =>
  useQuery({ queryKey: key("analytics"), queryFn: () => read(client.admin.analytics.$get()), enabled });

export const useSystem = (enabled: boolean) =>
  useQuery({ queryKey: key("system"), queryFn: () => read(client.admin.system.$get()), enabled });

export const useAudit = (enabled: boolean) =>
  useQuery({ queryKey: key("audit"), queryFn: () => read(client.admin.audit.$get()), enabled });

/** What the accounts list asks for; the server checks it again. */
export type UsersParams = z.input<typeof usersQuerySchema>;

export const useUsers = (params: UsersParams, enabled: boolean) =>
  useQuery({
    queryKey: key("users", params),
    queryFn: () => read(client.admin.users.$get({ query: params })),
    enabled,
    placeholderData: (previous) => previous,
  });

export const useTickets = (filter: { status?: TicketStatus; priority?: TicketPriority }, enabled: boolean) =>
  useQuery({
    queryKey: key("tickets", filter),
    queryFn: () => read(client.admin.tickets.$get({ query: filter })),
    enabled,
  });

/** After any admin action: every figure may have moved. */
function useAdminMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: ADMIN_KEY }) });
}

export const useRecalculate = () => useAdminMutation(() => read(client.admin.metrics.recalculate.$post()));

export const useRespond = () =>
  useAdminMutation(({ id, response }: { id: string; response: string }) =>
    read(client.admin.tickets[":id"].respond.$post({ param: { id }, json: { response } })),
  );

export const useTicketStatus = () =>
  useAdminMutation(({ id, action }: { id: string; action: "close" | "reopen" }) =>
    read(
      action === "close"
        ? client.admin.tickets[":id"].close.$post({ param: { id } })
        : client.admin.tickets[":id"].reopen.$post({ param: { id } }),
    ),
  );

export const useChangeRole = () =>
  useAdminMutation(({ id, role }: { id: string; role: Role }) =>
    read(client.admin.users[":id"].role.$patch({ param: { id }, json: { role } })),
  );

export const useBan = () =>
  useAdminMutation(({ id, banned }: { id: string; banned: boolean }) =>
    read(client.admin.users[":id"].ban.$post({ param: { id }, json: { banned } })),
  );

export const usePasswordReset = () =>
  useAdminMutation((id: string) => read(client.admin.users[":id"]["password-reset"].$post({ param: { id } })));

export const useSetRate = () =>
  useAdminMutation(({ currency, rate }: { currency: Currency; rate: string }) =>
    read(client.admin.rates[":currency"].$put({ param: { currency }, json: { rate } })),
  );

/**
 * The open-ticket count, live: server-sent events (fed by LISTEN/NOTIFY on the server, so a
 * ticket filed through any process arrives). The browser reconnects by itself after a drop.
 */
export function useLiveOpenCount(enabled: boolean): number | null {
  const [open, setOpen] = useState<number | null>(null);
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource("/api/admin/tickets/events");
    source.addEventListener("open-count", (e) => {
      const next = (JSON.parse((e as MessageEvent<string>).data) as { open: number }).open;
      setOpen((previous) => {
        // A change means a ticket arrived or moved: the list is stale too.
        if (previous !== null && previous !== next) void qc.invalidateQueries({ queryKey: key("tickets") });
        return next;
      });
    });
    return () => source.close();
  }, [enabled, qc]);
  return open;
}

// Admin Actions (ADR 046).
export const useBackups = (enabled: boolean) =>
  useQuery({ queryKey: key("backups"), queryFn: () => read(client.admin.backups.$get()), enabled });

export const useRefreshAnalytics = () =>
  useAdminMutation(() => read(client.admin.actions["refresh-analytics"].$post()));

export const useMaintenance = () => useAdminMutation(() => read(client.admin.actions.maintenance.$post()));

/** An account's newsletter figures and pause (ADR 070), read when its panel opens. */
export const useNewsletterSending = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: key("newsletter-sending", id),
    queryFn: () => read(client.admin.users[":id"]["newsletter-sending"].$get({ param: { id } })),
    enabled,
  });

export const useSetNewsletterPaused = () =>
  useAdminMutation(({ id, paused, reason }: { id: string; paused: boolean; reason: string }) =>
    read(client.admin.users[":id"]["newsletter-sending"].$post({ param: { id }, json: { paused, reason } })),
  );
