import { LandingPage } from "../../features/landing/landing-page.tsx";

export function HomeRoute() {
  return <LandingPage />;
}
