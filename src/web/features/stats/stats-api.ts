// The Stats screen's view of /api/stats: one place knows the wire shape.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { StatsRange } from "../../../shared/schemas/stats.ts";
import { client, read } from "../../lib/api.ts";

export function useStats(days: StatsRange) {
  return useQuery({
    queryKey: ["stats", days],
    queryFn: () => read(client.stats.$get({ query: { days: String(days) as "7" | "30" | "90" } })),
    // Switching the range keeps the last figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}
