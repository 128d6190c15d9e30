// The dashboard's reads and the subscription actions, over the billing and books APIs.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Tier } from "../../../shared/enums.ts";
import { fetchSubscription, SUBSCRIPTION_KEY, startCheckout } from "../../lib/account-state.ts";
import { api, client, read } from "../../lib/api.ts";

export type Capacity = { tier: Tier; limit: number; used: number; canAdd: boolean };
type BookRow = { id: string; visibilityEnabled?: boolean; overLimit?: boolean };

export const CAPACITY_KEY = ["books", "capacity"] as const;
export const HIDDEN_BY_PLAN_KEY = ["books", "hidden-by-plan"] as const;

export function useSubscription() {
  return useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription, staleTime: 30_000 });
}

export function useCapacity() {
  return useQuery({
    queryKey: CAPACITY_KEY,
    queryFn: () => api<Capacity>("/api/books/capacity"),
    staleTime: 30_000,
  });
}

/** Visible books the plan does not cover (beyond the limit by position): kept, but not shown publicly. */
export function useHiddenByPlan(enabled: boolean) {
  return useQuery({
    queryKey: HIDDEN_BY_PLAN_KEY,
    enabled,
    staleTime: 30_000,
    queryFn: async () => {
      const data = await api<BookRow[] | { books: BookRow[] }>("/api/books");
      const list = Array.isArray(data) ? data : data.books;
      return list.filter((b) => b.overLimit === true).length;
    },
  });
}

/** After any change: the plan, the limit and what it hides may all have moved. */
function useRefreshAll() {
  const qc = useQueryClient();
  return () =>
    Promise.all([qc.invalidateQueries({ queryKey: SUBSCRIPTION_KEY }), qc.invalidateQueries({ queryKey: ["books"] })]);
}

export function useChangePlan() {
  const refresh = useRefreshAll();
  return useMutation({
    mutationFn: (tier: Tier) => read(client.billing["change-plan"].$post({ json: { tier } })),
    onSuccess: () => refresh(),
  });
}

export function useCancelSubscription() {
  const refresh = useRefreshAll();
  return useMutation({
    mutationFn: () => read(client.billing.cancel.$post()),
    onSuccess: () => refresh(),
  });
}

export function useReactivate() {
  const refresh = useRefreshAll();
  return useMutation({
    mutationFn: () => read(client.billing.reactivate.$post()),
    onSuccess: (res) => {
      if (!res.checkoutUrl) return refresh();
    },
  });
}

export const NO_PORTAL_URL = "No portal URL received";

export async function openBillingPortal(): Promise<string> {
  const res = await read(client.billing.portal.$post());
  if (!res?.url) throw new Error(NO_PORTAL_URL);
  return res.url;
}

export { startCheckout };
