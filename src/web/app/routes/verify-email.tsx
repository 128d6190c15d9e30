import { VerifyEmail } from "../../features/auth/verify-email.tsx";

export function VerifyEmailRoute() {
  return <VerifyEmail />;
}
