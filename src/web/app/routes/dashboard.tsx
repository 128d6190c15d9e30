import { DashboardHome } from "../../features/dashboard/dashboard-home.tsx";

export function DashboardRoute() {
  return <DashboardHome />;
}
