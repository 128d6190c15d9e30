import { MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { signUpSchema } from "../../../shared/schemas/auth.ts";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { authClient, authErrorMessage, verifyCallback } from "../../lib/auth-client.ts";
import { safeNextPath, withNext } from "../../lib/next-path.ts";
import { AuthShell } from "./auth-shell.tsx";

type Errors = Partial<Record<"name" | "email" | "password", string>>;

export function SignupForm() {
  const [params] = useSearchParams();
  // A new account's next stop is the setup wizard (or the plan the pricing page preselected);
  // it rides along in the verification link.
  const next = safeNextPath(params.get("next")) ?? "/onboarding";
  const callbackURL = verifyCallback(next);
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Errors>({});
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const parsed = signUpSchema.safeParse({ name, email, password, callbackURL });
    if (!parsed.success) {
      const errs: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Errors;
        errs[key] ??= issue.message;
      }
      setFieldErrors(errs);
      return;
    }
    setFieldErrors({});
    setBusy(true);
    try {
      const { error: err } = await authClient.signUp.email({
        name: parsed.data.name,
        email: parsed.data.email,
        password: parsed.data.password,
        callbackURL,
      });
      if (err) setError(authErrorMessage(err, "Failed to create your account"));
      else setSentTo(parsed.data.email);
    } catch {
      setError("An unexpected error occurred. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <AuthShell title="Check your email">
        <div className="space-y-4 text-center">
          <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
            <MailCheck aria-hidden="true" className="h-6 w-6" />
          </div>
          <p className="text-slate-700">
            We sent a verification link to <strong className="text-slate-900">{sentTo}</strong>.
          </p>
          <p className="text-sm text-slate-600">
            Open it to confirm your address and continue setting up your website. The link works for 24 hours.
          </p>
          <p className="text-sm text-slate-600">
            Already verified?{" "}
            <Link to={withNext("/login", next)} className="font-medium text-brand-600 hover:underline">
              Sign in
            </Link>
          </p>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Start your free trial"
      subtitle="14 days free. Your author website, live in about 10 minutes."
      footer={
        <>
          Already have an account?{" "}
          <Link
            to={withNext("/login", next)}
            className="font-medium text-brand-600 hover:text-brand-700 hover:underline"
          >
            Sign in
          </Link>
        </>
      }
    >
      <form className="space-y-5" onSubmit={onSubmit} noValidate>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <Field
          id="name"
          label="Full name"
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldErrors.name}
        />
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldErrors.email}
          placeholder="you@example.com"
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldErrors.password}
          hint="At least 8 characters."
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Creating account..." : "Create account"}
        </Button>
      </form>
    </AuthShell>
  );
}
