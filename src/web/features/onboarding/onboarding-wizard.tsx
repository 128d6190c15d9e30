// The 3-step onboarding wizard: about you, the website, the plan; then setup (profile, website
// and trial subscription in one go on the server) and on to the payment step. The values and
// the one problem shown at a time live in react-hook-form, like every form of the app; each
// step's checks (wizard-model.ts) use the shared schemas' rules and messages.
import { ArrowLeft, ArrowRight, Loader2, LogOut } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { type FieldErrors, useForm } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { TRIAL_DAYS } from "../../../shared/plans.ts";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { type OnboardingState, startCheckout } from "../../lib/account-state.ts";
import { ApiError, client, read } from "../../lib/api.ts";
import { useSignOut } from "../../lib/use-sign-out.ts";
import { StepAbout } from "./step-about.tsx";
import { StepPlan } from "./step-plan.tsx";
import { StepWebsite } from "./step-website.tsx";
import { useSubdomainAvailability } from "./use-subdomain-availability.ts";
import {
  type Issue,
  initialValues,
  STEPS,
  type Step,
  stepForField,
  toCompleteBody,
  validateAbout,
  validatePlan,
  validateWebsite,
  type WizardValues,
} from "./wizard-model.ts";
import { WizardProgress } from "./wizard-progress.tsx";

export const SETUP_FAILED = "Failed to complete onboarding. Please try again.";

export function OnboardingWizard({ state }: { state: OnboardingState }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useForm<WizardValues>({ defaultValues: initialValues(state, params) });
  const values = form.watch();
  const issue = firstIssue(form.formState.errors);
  const [step, setStep] = useState<Step>(1);
  const [busy, setBusy] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [paymentRetry, setPaymentRetry] = useState<string | null>(null);
  const availability = useSubdomainAvailability(values.subdomain, true);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // Each step's heading takes focus, so screen readers announce where the person now is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on step change only
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  // An error points at a field: focus it.
  useEffect(() => {
    if (issue?.field) document.getElementById(issue.field)?.focus();
  }, [issue]);

  /** One problem at a time: under its field when it names one, else above the step. */
  function setIssue(found: Issue | null) {
    form.clearErrors();
    if (found) form.setError(found.field ?? "root", { type: "manual", message: found.message });
  }

  function change(patch: Partial<WizardValues>) {
    for (const [key, value] of Object.entries(patch) as [keyof WizardValues, WizardValues[keyof WizardValues]][]) {
      form.setValue(key, value);
    }
    if (issue && Object.keys(patch).some((k) => k === issue.field || !issue.field)) setIssue(null);
  }

  async function next() {
    const current = form.getValues();
    if (step === 1) {
      const found = validateAbout(current);
      if (found) return setIssue(found);
    }
    if (step === 2) {
      let found = validateWebsite(current, "available");
      if (!found) {
        setBusy(true);
        const state = await availability.checkNow();
        setBusy(false);
        found = validateWebsite(current, state);
      }
      if (found) return setIssue(found);
    }
    setIssue(null);
    setStep((s) => (s < 3 ? ((s + 1) as Step) : s));
  }

  function back() {
    setIssue(null);
    setStep((s) => (s > 1 ? ((s - 1) as Step) : s));
  }

  async function submit() {
    const values = form.getValues();
    const found = validatePlan(values);
    if (found) return setIssue(found);
    setIssue(null);
    setBusy(true);
    try {
      const res = await read(client.onboarding.complete.$post({ json: toCompleteBody(values) }));
      // Straight on to payment: step 3 already said the site opens once the card is in, so a
      // 'set up' screen in between was one more screen to wait on (issue 30, ADR 055).
      setLeaving(true);
      window.location.assign(res.checkoutUrl);
    } catch (err) {
      toast.error(SETUP_FAILED);
      if (!(err instanceof ApiError)) {
        setIssue({ message: "An unexpected error occurred. Please try again." });
      } else if (err.code === "payment_provider_failed") {
        // The website exists; only the payment step failed to open.
        setPaymentRetry(err.message);
      } else if (err.code === "already_onboarded") {
        toast.error(err.message);
        navigate("/dashboard", { replace: true });
      } else if (err.code === "unauthenticated") {
        navigate("/login?next=%2Fonboarding", { replace: true });
      } else {
        const target = stepForField(err.field);
        if (err.code === "subdomain_taken") availability.markTaken(values.subdomain);
        if (target) setStep(target);
        setIssue({ message: err.message, field: (err.field as keyof WizardValues | undefined) ?? undefined });
      }
    } finally {
      setBusy(false);
    }
  }

  async function retryPayment() {
    if (!values.tier) return;
    setBusy(true);
    try {
      const { url } = await startCheckout(values.tier, values.currency);
      window.location.assign(url);
    } catch (err) {
      setPaymentRetry(err instanceof ApiError ? err.message : "An unexpected error occurred. Please try again.");
      setBusy(false);
    }
  }

  const current = STEPS[step - 1] ?? STEPS[0];
  return (
    <WizardShell email={state.email}>
      <div className="mb-8 text-center">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          Let's build your author website
        </h1>
        <p className="mt-2 text-slate-600">
          Three quick steps, then a {TRIAL_DAYS}-day free trial. Your site goes live as soon as you add your card.
        </p>
      </div>
      <div className="mb-6">
        <WizardProgress step={step} />
      </div>
      <Card>
        <form
          noValidate
          onSubmit={(e) => {
            // Not handleSubmit: a problem shown from the server must not block the next try.
            e.preventDefault();
            if (busy) return;
            void (step === 3 ? submit() : next());
          }}
        >
          <CardContent className="space-y-6 p-6 sm:p-8">
            <h2 ref={headingRef} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
              {current?.title}
            </h2>
            {issue ? <Alert tone="error">{issue.message}</Alert> : null}
            {paymentRetry ? (
              <Alert tone="warning">
                <p>{paymentRetry}</p>
                <Button className="mt-3" size="sm" onClick={retryPayment} disabled={busy}>
                  {busy ? "Opening payment..." : "Continue to payment"}
                </Button>
              </Alert>
            ) : null}
            {step === 1 ? <StepAbout values={values} issue={issue} onChange={change} /> : null}
            {step === 2 ? (
              <StepWebsite
                values={values}
                issue={issue}
                sitesDomain={state.sitesDomain}
                availability={availability.state}
                availabilityReason={availability.reason}
                onRetryCheck={availability.retry}
                onChange={change}
              />
            ) : null}
            {step === 3 ? (
              <StepPlan values={values} issue={issue} sitesDomain={state.sitesDomain} onChange={change} />
            ) : null}
          </CardContent>
          <div className="flex flex-col-reverse gap-3 border-t border-slate-100 px-6 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-8">
            <div>
              {step > 1 ? (
                <Button variant="ghost" onClick={back} disabled={busy}>
                  <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back
                </Button>
              ) : null}
            </div>
            <div className="flex flex-col-reverse gap-3 sm:flex-row">
              <Button variant="secondary" onClick={() => window.location.assign("/")} disabled={busy && step === 3}>
                Cancel
              </Button>
              {step < 3 ? (
                <Button type="submit" disabled={busy}>
                  Next <ArrowRight aria-hidden="true" className="h-4 w-4" />
                </Button>
              ) : (
                <Button type="submit" disabled={busy || leaving || paymentRetry !== null}>
                  {leaving ? (
                    <>
                      <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> Opening payment...
                    </>
                  ) : busy ? (
                    <>
                      <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> Setting up trial...
                    </>
                  ) : (
                    "Start Trial & Enter Payment"
                  )}
                </Button>
              )}
            </div>
          </div>
        </form>
      </Card>
    </WizardShell>
  );
}

function firstIssue(errors: FieldErrors<WizardValues>): Issue | null {
  if (errors.root?.message) return { message: errors.root.message };
  for (const [field, error] of Object.entries(errors)) {
    if (field !== "root" && error?.message)
      return { message: String(error.message), field: field as keyof WizardValues };
  }
  return null;
}

function WizardShell({ email, children }: { email: string; children: ReactNode }) {
  const signOut = useSignOut();
  return (
    <div className="min-h-screen bg-gradient-to-b from-brand-50 via-white to-white">
      <header className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-6 py-5">
        <Logo to="/" />
        <div className="flex items-center gap-3 text-sm text-slate-600">
          <span className="hidden sm:inline">{email}</span>
          <Button variant="ghost" size="sm" onClick={signOut}>
            <LogOut aria-hidden="true" className="h-4 w-4" /> Sign out
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 pb-20 pt-4 sm:px-6 sm:pt-8">{children}</main>
    </div>
  );
}
