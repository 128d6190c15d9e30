import { AdminPage } from "../../features/admin/index.ts";

export function AdminRoute() {
  return <AdminPage />;
}
