// The Series screen's view of /api/series (ADR 034).
import { useQuery } from "@tanstack/react-query";
import type { Series, SeriesCreateInput } from "../../../shared/schemas/series.ts";
import { client, read, readField } from "../../lib/api.ts";

export type { Series } from "../../../shared/schemas/series.ts";

export const SERIES_KEY = ["series"] as const;

export function useSeries() {
  // Books join and leave series in the book editor: the list is read afresh whenever it is shown.
  return useQuery({ queryKey: SERIES_KEY, queryFn: () => readField(client.series.$get(), "series"), staleTime: 0 });
}

const one = client.series[":id"];

export const createSeries = (body: SeriesCreateInput): Promise<Series> =>
  readField(client.series.$post({ json: body }), "series");

export const updateSeries = (id: string, body: SeriesCreateInput): Promise<Series> =>
  readField(one.$patch({ param: { id }, json: body }), "series");

export const orderSeries = (id: string, bookIds: string[]): Promise<Series> =>
  readField(one.order.$put({ param: { id }, json: { bookIds } }), "series");

export async function deleteSeries(id: string): Promise<void> {
  await read(one.$delete({ param: { id } }));
}
