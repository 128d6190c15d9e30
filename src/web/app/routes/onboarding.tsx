import { useLoaderData } from "react-router";
import { OnboardingWizard } from "../../features/onboarding/index.ts";
import type { OnboardingState } from "../../lib/account-state.ts";

/** Loaded by onboardingLoader: signed in, no website yet; the state prefills step 1. */
export function OnboardingRoute() {
  const state = useLoaderData() as OnboardingState;
  return <OnboardingWizard state={state} />;
}
