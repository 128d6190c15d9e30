import { CheckCircle2, XCircle } from "lucide-react";
import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { safeNextPath, withNext } from "../../../shared/next-path.ts";
import { Button } from "../../components/ui/button.tsx";
import { useSession } from "../../lib/auth-client.ts";
import { AuthShell } from "./auth-shell.tsx";

const REASONS: Record<string, string> = {
  TOKEN_EXPIRED: "This verification link has expired.",
  INVALID_TOKEN: "This verification link is not valid.",
  USER_NOT_FOUND: "We could not find the account for this link.",
  INVALID_USER: "This link belongs to a different account than the one signed in.",
};

/** Where the verification mail's link lands (Better Auth redirects here, with ?error= on failure). */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const error = params.get("error");
  const next = safeNextPath(params.get("next"));
  const { data: session, isPending } = useSession();
  const navigate = useNavigate();
  // Verifying signs the person in: carry straight on to where they were heading (the wizard).
  const continueNow = !error && next !== null && session !== null && session !== undefined;
  useEffect(() => {
    if (!continueNow || !next) return;
    toast.success("Thank you, your email address is confirmed.");
    navigate(next, { replace: true });
  }, [continueNow, next, navigate]);

  if (error) {
    return (
      <AuthShell title="We couldn't verify your email">
        <div className="space-y-4 text-center">
          <XCircle aria-hidden="true" className="mx-auto h-12 w-12 text-red-500" />
          <p role="alert" className="text-slate-700">
            {REASONS[error.toUpperCase()] ?? `Verification failed (${error}).`}
          </p>
          <p className="text-sm text-slate-600">
            Sign in with your email and password and we will offer to send you a fresh link.
          </p>
          <Button asChild className="w-full">
            <Link to={withNext("/login", next)}>Go to sign in</Link>
          </Button>
        </div>
      </AuthShell>
    );
  }

  if (continueNow || (next && isPending && !error)) {
    return (
      <div className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
        <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-100 border-t-brand-500" />
        <span className="sr-only">Email verified. Continuing...</span>
      </div>
    );
  }

  return (
    <AuthShell title="Email verified">
      <div className="space-y-4 text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto h-12 w-12 text-emerald-500" />
        <p className="text-slate-700">Thank you, your email address is confirmed.</p>
        <Button asChild className="w-full">
          <Link to={session ? (next ?? "/onboarding") : withNext("/login", next ?? "/onboarding")}>
            {session ? "Continue to set up your website" : "Sign in to continue"}
          </Link>
        </Button>
      </div>
    </AuthShell>
  );
}
