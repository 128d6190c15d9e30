import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { z } from "zod";
import { resetPasswordSchema } from "../../../shared/schemas/auth.ts";
import { NewPasswordField, PasswordField } from "../../components/account-fields.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { authClient, authErrorCode, authErrorMessage } from "../../lib/auth-client.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { AuthShell } from "./auth-shell.tsx";

// The shared reset schema plus the screen's second typing of the password.
const resetFormSchema = resetPasswordSchema
  .extend({ confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, { error: "The two passwords do not match", path: ["confirm"] });

const INVALID_LINK = "This password reset link is invalid or has expired. Please ask for a new one.";

export function ResetPasswordForm() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const linkError = params.get("error");
  const form = useZodForm(resetFormSchema, { token: token ?? "", newPassword: "", confirm: "" });
  const busy = form.formState.isSubmitting;
  // One message above the form, as the spec shows it, rather than one under each field.
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const onSubmit = form.handleSubmit(
    async ({ newPassword, token }) => {
      setError(null);
      try {
        const { error: err } = await authClient.resetPassword({ newPassword, token });
        if (err) {
          setError(
            authErrorCode(err) === "invalid_token" || authErrorCode(err) === "token_expired"
              ? INVALID_LINK
              : authErrorMessage(err, "Failed to reset password"),
          );
        } else setDone(true);
      } catch {
        setError("An unexpected error occurred. Please try again.");
      }
    },
    (found) => setError(found.newPassword?.message ?? found.confirm?.message ?? found.token?.message ?? INVALID_LINK),
  );

  if (linkError || !token) {
    return (
      <AuthShell title="Reset your password">
        <Alert tone="error">{INVALID_LINK}</Alert>
        <Button asChild className="w-full">
          <Link to="/forgot-password">Send a new link</Link>
        </Button>
      </AuthShell>
    );
  }

  if (done) {
    return (
      <AuthShell title="Password changed">
        <Alert tone="success">Your password has been reset. You can now sign in with your new password.</Alert>
        <Button asChild className="w-full">
          <Link to="/login">Sign in</Link>
        </Button>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Choose a new password">
      <form className="space-y-5" onSubmit={onSubmit}>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <NewPasswordField {...form.register("newPassword")} hint="At least 8 characters." />
        <PasswordField id="confirm-password" label="Confirm new password" kind="new" {...form.register("confirm")} />
        <SaveButton className="w-full" busy={busy}>
          Reset password
        </SaveButton>
      </form>
    </AuthShell>
  );
}
