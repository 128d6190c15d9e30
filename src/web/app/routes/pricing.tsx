import { PricingPage } from "../../features/pricing/pricing-page.tsx";

export function PricingRoute() {
  return <PricingPage />;
}
