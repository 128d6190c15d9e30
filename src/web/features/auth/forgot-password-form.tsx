import { useState } from "react";
import { Link } from "react-router";
import { requestPasswordResetSchema } from "../../../shared/schemas/auth.ts";
import { EmailField } from "../../components/account-fields.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { authClient } from "../../lib/auth-client.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { AuthShell } from "./auth-shell.tsx";

export function ForgotPasswordForm() {
  const form = useZodForm(requestPasswordResetSchema, { email: "", redirectTo: "/reset-password" });
  const email = form.watch("email");
  const busy = form.formState.isSubmitting;
  const [done, setDone] = useState(false);

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await authClient.requestPasswordReset(body);
    } catch {
      // Deliberately ignored: the answer is the same whether or not the address has an account.
    } finally {
      setDone(true);
    }
  });

  return (
    <AuthShell
      title="Reset your password"
      subtitle={done ? undefined : "Enter your email and we'll send you a link to choose a new password."}
      footer={
        <Link to="/login" className="font-medium text-brand-600 hover:text-brand-700 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {done ? (
        <Alert tone="success">
          If an account exists for <strong>{email}</strong>, we have sent a link to reset its password. Check your
          inbox; the link works for one hour.
        </Alert>
      ) : (
        <form className="space-y-5" onSubmit={onSubmit}>
          <EmailField error={form.formState.errors.email?.message} {...form.register("email")} />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Sending..." : "Send reset link"}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
