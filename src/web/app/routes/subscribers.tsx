import { SubscribersPage } from "../../features/subscribers/index.ts";

export function SubscribersRoute() {
  return <SubscribersPage />;
}
