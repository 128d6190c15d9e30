import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { safeNextPath, VERIFY_NEXT_HEADER, withNext } from "../../../shared/next-path.ts";
import { signInSchema } from "../../../shared/schemas/auth.ts";
import { EmailField, PasswordField } from "../../components/account-fields.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { client } from "../../lib/api.ts";
import { authClient, authErrorCode, authErrorMessage, verifyCallback } from "../../lib/auth-client.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { AuthShell } from "./auth-shell.tsx";

const UNEXPECTED = "An unexpected error occurred. Please try again.";

/** The spec: a failing subscription check after sign-in is only logged; the person goes on. */
async function checkSubscription() {
  try {
    const res = await client.subscription.status.$get();
    if (!res.ok) console.warn(`Subscription check failed with status ${res.status}`);
  } catch (err) {
    console.warn("Subscription check failed", err);
  }
}

export function LoginForm() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Where the person was heading (e.g. the wizard); the dashboard sends authors without a website on to it.
  const next = safeNextPath(params.get("next"));
  // The browser's own checks (required, type=email) run first, as before; the shared schema
  // then catches what they let through.
  const credentials = useZodForm(signInSchema, { email: "", password: "" });
  const email = credentials.watch("email");
  const credentialErrors = credentials.formState.errors;
  // The code step has no shared schema: its input is checked by the browser and the server.
  const twoFactor = useForm({ defaultValues: { code: "", trustDevice: false } });
  const busy = credentials.formState.isSubmitting || twoFactor.formState.isSubmitting;
  const [error, setError] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  const [locked, setLocked] = useState(false);
  const [step, setStep] = useState<"credentials" | "two-factor">("credentials");
  const [useBackup, setUseBackup] = useState(false);

  async function finish() {
    await checkSubscription();
    navigate(next ?? "/dashboard", { replace: true });
  }

  const onSignIn = credentials.handleSubmit(async ({ email, password }) => {
    setError(null);
    setUnverified(false);
    setLocked(false);
    try {
      // Should the account be unverified, the mail sent now continues to where this person was heading.
      const { data, error: err } = await authClient.signIn.email(
        { email, password },
        { headers: { [VERIFY_NEXT_HEADER]: next ?? "/dashboard" } },
      );
      if (err) {
        if (err.status === 403 && authErrorCode(err) === "email_not_verified") setUnverified(true);
        else {
          // The pause after repeated wrong passwords (ADR 015): the way out is a new password.
          setLocked(authErrorCode(err) === "sign_in_locked");
          setError(authErrorMessage(err, "Failed to sign in"));
        }
        return;
      }
      if (data && "twoFactorRedirect" in data && data.twoFactorRedirect) {
        setStep("two-factor");
        return;
      }
      await finish();
    } catch {
      setError(UNEXPECTED);
    }
  });

  const onVerifyCode = twoFactor.handleSubmit(async ({ code, trustDevice }) => {
    setError(null);
    try {
      const trimmed = code.replace(/\s+/g, "");
      const { error: err } = useBackup
        ? await authClient.twoFactor.verifyBackupCode({ code: trimmed, trustDevice })
        : await authClient.twoFactor.verifyTotp({ code: trimmed, trustDevice });
      if (err) {
        setError(authErrorMessage(err, "That code did not work. Please try again."));
        return;
      }
      await finish();
    } catch {
      setError(UNEXPECTED);
    }
  });

  async function resend() {
    try {
      const { error: err } = await authClient.sendVerificationEmail({
        email,
        callbackURL: verifyCallback(next ?? "/onboarding"),
      });
      if (err) toast.error(authErrorMessage(err, "Could not send the verification email"));
      else toast.success(`We sent a new verification link to ${email}.`);
    } catch {
      toast.error(UNEXPECTED);
    }
  }

  if (step === "two-factor") {
    return (
      <AuthShell
        title="Two-factor authentication"
        subtitle={
          useBackup
            ? "Enter one of the backup codes you saved when you turned on two-factor authentication."
            : "Enter the 6-digit code from your authenticator app."
        }
      >
        <form className="space-y-5" onSubmit={onVerifyCode} noValidate={false}>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <Field
            id="code"
            label={useBackup ? "Backup code" : "Authentication code"}
            {...twoFactor.register("code")}
            required
            autoFocus
            autoComplete="one-time-code"
            inputMode={useBackup ? "text" : "numeric"}
            pattern={useBackup ? undefined : "[0-9 ]{6,7}"}
            maxLength={useBackup ? 32 : 7}
            placeholder={useBackup ? "xxxxx-xxxxx" : "123456"}
            className="text-center font-mono text-lg tracking-widest"
          />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300 accent-brand-600"
              {...twoFactor.register("trustDevice")}
            />
            Trust this device for 30 days
          </label>
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Verifying..." : "Verify"}
          </Button>
          <div className="flex items-center justify-between text-sm">
            <Button
              variant="link"
              onClick={() => {
                setUseBackup(!useBackup);
                twoFactor.setValue("code", "");
                setError(null);
              }}
            >
              {useBackup ? "Use your authenticator app" : "Use a backup code instead"}
            </Button>
            <Button
              variant="link"
              onClick={() => {
                setStep("credentials");
                twoFactor.setValue("code", "");
                setError(null);
              }}
            >
              Start over
            </Button>
          </div>
        </form>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Welcome back"
      subtitle="Sign in to manage your author website."
      footer={
        <>
          New to Bookplate?{" "}
          <Link
            to={withNext("/signup", next ?? "/onboarding")}
            className="font-medium text-brand-600 hover:text-brand-700 hover:underline"
          >
            Start your free trial
          </Link>
        </>
      }
    >
      <form className="space-y-5" onSubmit={onSignIn}>
        {error ? (
          <Alert tone="error">
            {error}
            {locked ? (
              <>
                {" "}
                <Link to="/forgot-password" className="font-medium underline">
                  Reset your password
                </Link>
              </>
            ) : null}
          </Alert>
        ) : null}
        {unverified ? (
          <Alert tone="warning">
            <p className="font-medium">Please verify your email address first.</p>
            <p className="mt-1">
              We sent a verification link to <strong>{email}</strong>. Open it, then sign in again.
            </p>
            <Button variant="link" className="mt-2 text-amber-900 underline" onClick={resend}>
              Resend verification email
            </Button>
          </Alert>
        ) : null}
        <EmailField error={credentialErrors.email?.message} {...credentials.register("email")} />
        <div className="space-y-1.5">
          <PasswordField
            id="password"
            label="Password"
            kind="current"
            error={credentialErrors.password?.message}
            {...credentials.register("password")}
          />
          <div className="text-right">
            <Link
              to="/forgot-password"
              className="text-sm font-medium text-brand-600 hover:text-brand-700 hover:underline"
            >
              Forgot your password?
            </Link>
          </div>
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Signing in..." : "Sign In"}
        </Button>
      </form>
    </AuthShell>
  );
}
