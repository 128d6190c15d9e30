import { MailCheck } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { safeNextPath, withNext } from "../../../shared/next-path.ts";
import { signUpSchema } from "../../../shared/schemas/auth.ts";
import { EmailField } from "../../components/account-fields.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { authClient, authErrorMessage, verifyCallback } from "../../lib/auth-client.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { AuthShell } from "./auth-shell.tsx";

export function SignupForm() {
  const [params] = useSearchParams();
  // A new account's next stop is the setup wizard (or the plan the pricing page preselected);
  // it rides along in the verification link.
  const next = safeNextPath(params.get("next")) ?? "/onboarding";
  const callbackURL = verifyCallback(next);
  const form = useZodForm(signUpSchema, { name: "", email: "", password: "", callbackURL });
  const { register, handleSubmit, formState } = form;
  const fieldErrors = formState.errors;
  const busy = formState.isSubmitting;
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = handleSubmit(
    async (data) => {
      setError(null);
      try {
        const { error: err } = await authClient.signUp.email({
          name: data.name,
          email: data.email,
          password: data.password,
          callbackURL,
        });
        if (err) setError(authErrorMessage(err, "Failed to create your account"));
        else setSentTo(data.email);
      } catch {
        setError("An unexpected error occurred. Please try again.");
      }
    },
    () => setError(null),
  );

  if (sentTo) {
    return (
      <AuthShell title="Check your email">
        <div className="space-y-4 text-center">
          <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
            <MailCheck aria-hidden="true" className="h-6 w-6" />
          </div>
          {/* The same words whether or not the address already had an account: the server
              answers both alike and mails the owner of a taken address instead (ADR 015). */}
          <p className="text-slate-700">
            We sent an email to <strong className="text-slate-900">{sentTo}</strong>.
          </p>
          <p className="text-sm text-slate-600">
            Open the link in it to confirm your address and continue setting up your website. The link works for 24
            hours.
          </p>
          <p className="text-sm text-slate-600">
            If this address already has a Bookplate account, the email tells you how to sign in instead.
          </p>
          <p className="text-sm text-slate-600">
            Already have an account?{" "}
            <Link to={withNext("/login", next)} className="font-medium text-brand-600 hover:underline">
              Sign in
            </Link>{" "}
            or{" "}
            <Link to="/forgot-password" className="font-medium text-brand-600 hover:underline">
              reset your password
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
          error={fieldErrors.name?.message}
          {...register("name")}
        />
        <EmailField error={fieldErrors.email?.message} {...register("email")} />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          error={fieldErrors.password?.message}
          {...register("password")}
          hint="At least 8 characters."
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Creating account..." : "Create account"}
        </Button>
      </form>
    </AuthShell>
  );
}
