// The dashboard's reads and the subscription actions, over the billing and books APIs.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { Tier } from "../../../shared/enums.ts";
import type { SiteStatus } from "../../../shared/schemas/site-status.ts";
import { fetchSubscription, SITE_STATUS_KEY, SUBSCRIPTION_KEY, startCheckout } from "../../lib/account-state.ts";
import { ApiError, client, errorMessage, fileUpload, read, readField } from "../../lib/api.ts";

export function useSubscription() {
  return useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription, staleTime: 30_000 });
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

/**
 * What the author is told when the portal does not open: our own refusal as it was said (say,
 * "Please complete checkout first"), anything else (no URL, the provider or the network failing)
 * as the spec's 'No portal URL received' rather than a generic error.
 */
export function portalFailureMessage(err: unknown): string {
  if (err instanceof ApiError && err.status < 500 && err.code !== undefined && err.message) return err.message;
  return NO_PORTAL_URL;
}

export async function openBillingPortal(): Promise<string> {
  const res = await read(client.billing.portal.$post());
  if (!res?.url) throw new Error(NO_PORTAL_URL);
  return res.url;
}

export { startCheckout };

/**
 * The getting-started checklist's "Hide this list" (and "Show the getting-started list" to bring
 * it back), kept with the author's site on the server so another device agrees. The screen changes
 * at once; if the server refuses, it changes back with why.
 */
export function useChecklistDismissal(
  status: SiteStatus | undefined,
): [hidden: boolean, hide: () => void, show: () => void] {
  const qc = useQueryClient();
  const setHidden = useMutation({
    mutationFn: (checklistHidden: boolean) => read(client.site.status.$patch({ json: { checklistHidden } })),
    onMutate: async (checklistHidden) => {
      await qc.cancelQueries({ queryKey: SITE_STATUS_KEY });
      const before = qc.getQueryData<SiteStatus>(SITE_STATUS_KEY);
      if (before) qc.setQueryData<SiteStatus>(SITE_STATUS_KEY, { ...before, checklistHidden });
      return { before };
    },
    onError: (err, _vars, context) => {
      if (context?.before) qc.setQueryData(SITE_STATUS_KEY, context.before);
      toast.error(errorMessage(err));
    },
    onSuccess: (saved) => qc.setQueryData(SITE_STATUS_KEY, saved),
  });
  return [status?.checklistHidden ?? false, () => setHidden.mutate(true), () => setHidden.mutate(false)];
}

export const PROFILE_KEY = ["profile"] as const;

/** The author's name for a first book and whether the photo and bio are in, for the checklist. */
export function useProfile() {
  return useQuery({ queryKey: PROFILE_KEY, queryFn: () => readField(client.profile.$get(), "profile") });
}

export type FirstBookInput = { title: string; author: string; storeUrl: string; storeName: string; cover: File | null };

/**
 * The overview's first book, through the same API as the Add Book screen: the book with its one
 * store link, then its cover. A cover that fails leaves the book saved and says why.
 */
export async function createFirstBook(input: FirstBookInput) {
  const retailerLinks = input.storeUrl ? [{ retailerName: input.storeName, retailerUrl: input.storeUrl }] : [];
  const { book } = await read(
    client.books.$post({ json: { title: input.title, author: input.author, retailerLinks } }),
  );
  let coverError: unknown = null;
  if (input.cover) {
    try {
      await read(client.books[":id"].cover.$post({ param: { id: book.id } }, fileUpload(input.cover)));
    } catch (err) {
      coverError = err;
    }
  }
  return { book, coverError };
}
