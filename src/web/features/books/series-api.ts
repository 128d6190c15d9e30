// The Series screen's view of /api/series (ADR 034).
import { useQuery } from "@tanstack/react-query";
import type { Series, SeriesCreateInput } from "../../../shared/schemas/series.ts";
import { client, read } from "../../lib/api.ts";

export type { Series } from "../../../shared/schemas/series.ts";

export const SERIES_KEY = ["series"] as const;

export function useSeries() {
  // Books join and leave series in the book editor: the list is read afresh whenever it is shown.
  return useQuery({
    queryKey: SERIES_KEY,
    queryFn: async () => (await read(client.series.$get())).series,
    staleTime: 0,
  });
}

export async function createSeries(body: SeriesCreateInput): Promise<Series> {
  return (await read(client.series.$post({ json: body }))).series;
}

export async function updateSeries(id: string, body: SeriesCreateInput): Promise<Series> {
  return (await read(client.series[":id"].$patch({ param: { id }, json: body }))).series;
}

export async function orderSeries(id: string, bookIds: string[]): Promise<Series> {
  return (await read(client.series[":id"].order.$put({ param: { id }, json: { bookIds } }))).series;
}

export async function deleteSeries(id: string): Promise<void> {
  await read(client.series[":id"].$delete({ param: { id } }));
}
