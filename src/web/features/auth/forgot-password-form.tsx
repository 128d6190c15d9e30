import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { authClient } from "../../lib/auth-client.ts";
import { AuthShell } from "./auth-shell.tsx";

export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await authClient.requestPasswordReset({ email, redirectTo: "/reset-password" });
    } catch {
      // Deliberately ignored: the answer is the same whether or not the address has an account.
    } finally {
      setBusy(false);
      setDone(true);
    }
  }

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
          <Field
            id="email"
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder="you@example.com"
          />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Sending..." : "Send reset link"}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
