// The Subscribers screen's view of /api/newsletter/subscribers: one place knows the wire shape.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { SubscriberImport, SubscribersQuery } from "../../../shared/schemas/subscribers.ts";
import { client, read } from "../../lib/api.ts";

export const SUBSCRIBERS_KEY = ["newsletter-subscribers"] as const;

export function useSubscriberPage(query: SubscribersQuery) {
  return useQuery({
    queryKey: [...SUBSCRIBERS_KEY, query],
    queryFn: () =>
      read(
        client.newsletter.subscribers.$get({
          query: {
            page: String(query.page),
            ...(query.q ? { q: query.q } : {}),
            ...(query.status ? { status: query.status } : {}),
          },
        }),
      ),
    // A new search or page keeps the last rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export async function deleteSubscriber(id: string): Promise<void> {
  await read(client.newsletter.subscribers[":id"].$delete({ param: { id } }));
}

/** Multipart (the browser sets the boundary): the CSV file and the author's confirmation. */
export async function importSubscribers(file: File, consent: boolean): Promise<SubscriberImport> {
  const form = new FormData();
  form.append("file", file);
  if (consent) form.append("consent", "true");
  return read(client.newsletter.subscribers.import.$post({}, { init: { body: form, credentials: "same-origin" } }));
}
