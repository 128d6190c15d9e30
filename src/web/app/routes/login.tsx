import { LoginForm } from "../../features/auth/login-form.tsx";

export function LoginRoute() {
  return <LoginForm />;
}
