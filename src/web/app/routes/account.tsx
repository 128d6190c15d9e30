import { AccountPage } from "../../features/account/account-page.tsx";

export function AccountRoute() {
  return <AccountPage />;
}
