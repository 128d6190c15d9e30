import { SettingsTabs } from "../../features/settings/settings-tabs.tsx";
import { SubscribersPage } from "../../features/subscribers/index.ts";

/** Under Settings, next to Newsletter: how readers sign up, then who they are. */
export function SubscribersRoute() {
  return (
    <>
      <SettingsTabs />
      <SubscribersPage />
    </>
  );
}
