// The onboarding feature's public face: the wizard screen.
export { OnboardingWizard } from "./onboarding-wizard.tsx";
