import { StatsPage } from "../../features/stats/index.ts";

export function StatsRoute() {
  return <StatsPage />;
}
