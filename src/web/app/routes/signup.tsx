import { SignupForm } from "../../features/auth/signup-form.tsx";

export function SignupRoute() {
  return <SignupForm />;
}
