import { HelpPage } from "../../features/help/index.ts";

export function HelpRoute() {
  return <HelpPage />;
}
