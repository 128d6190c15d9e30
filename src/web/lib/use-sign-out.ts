// Signing out from the dashboard's header or the wizard's: a refusal from the server is ignored
// (the spec: the person is signed out here either way), then the sign-in page.
import { useNavigate } from "react-router";
import { authClient } from "./auth-client.ts";

export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    try {
      await authClient.signOut();
    } catch {
      // Signed out here either way.
    }
    navigate("/login", { replace: true });
  };
}
