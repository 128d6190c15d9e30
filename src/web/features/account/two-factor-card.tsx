import { useQueryClient } from "@tanstack/react-query";
import { ShieldCheck, ShieldOff } from "lucide-react";
import QRCode from "qrcode";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { confirmPasswordSchema, totpCodeSchema } from "../../../shared/schemas/auth.ts";
import { PasswordField } from "../../components/account-fields.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { authClient, authErrorMessage, useSession } from "../../lib/auth-client.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";

type Stage =
  | { kind: "idle" }
  | { kind: "password"; action: "enable" | "disable" | "codes" }
  | { kind: "scan"; qr: string; secret: string; backupCodes: string[] }
  | { kind: "codes"; backupCodes: string[] };

function secretFrom(totpURI: string): string {
  return new URL(totpURI).searchParams.get("secret") ?? "";
}

export function TwoFactorCard() {
  const { data: session, refetch } = useSession();
  const queryClient = useQueryClient();
  const enabled = Boolean(session?.user.twoFactorEnabled);
  const [stage, setStage] = useState<Stage>({ kind: "idle" });
  const passwordForm = useZodForm(confirmPasswordSchema, { password: "" });
  const codeForm = useZodForm(totpCodeSchema, { code: "" });
  const busy = passwordForm.formState.isSubmitting || codeForm.formState.isSubmitting;
  // One message above the forms, as the other account cards do.
  const [error, setError] = useState<string | null>(null);

  function reset() {
    setStage({ kind: "idle" });
    passwordForm.reset();
    codeForm.reset();
    setError(null);
  }

  const onPassword = passwordForm.handleSubmit(async ({ password }) => {
    if (stage.kind !== "password") return;
    setError(null);
    try {
      if (stage.action === "enable") {
        const { data, error: err } = await authClient.twoFactor.enable({ password });
        if (err || !data || !("totpURI" in data))
          return setError(authErrorMessage(err, "Could not start two-factor setup"));
        const qr = await QRCode.toDataURL(data.totpURI, { margin: 1, width: 200 });
        setStage({ kind: "scan", qr, secret: secretFrom(data.totpURI), backupCodes: data.backupCodes });
      } else if (stage.action === "disable") {
        const { error: err } = await authClient.twoFactor.disable({ password });
        if (err) return setError(authErrorMessage(err, "Could not turn off two-factor authentication"));
        toast.success("Two-factor authentication is off");
        reset();
        await refetch();
      } else {
        const { data, error: err } = await authClient.twoFactor.generateBackupCodes({ password });
        if (err || !data) return setError(authErrorMessage(err, "Could not create new backup codes"));
        setStage({ kind: "codes", backupCodes: data.backupCodes });
      }
      passwordForm.reset();
    } catch {
      setError("An unexpected error occurred. Please try again.");
    }
  }, showFirstError);

  const onConfirm = codeForm.handleSubmit(async ({ code }) => {
    if (stage.kind !== "scan") return;
    setError(null);
    try {
      const { error: err } = await authClient.twoFactor.verifyTotp({ code });
      if (err) return setError(authErrorMessage(err, "That code did not work. Please try again."));
      toast.success("Two-factor authentication is on");
      codeForm.reset();
      setStage({ kind: "codes", backupCodes: stage.backupCodes });
      await refetch();
      // Verifying rotates the session; the sessions list must show the new one.
      await queryClient.invalidateQueries({ queryKey: ["sessions"] });
    } catch {
      setError("An unexpected error occurred. Please try again.");
    }
  }, showFirstError);

  function showFirstError(found: { password?: { message?: string }; code?: { message?: string } }) {
    setError(found.password?.message ?? found.code?.message ?? null);
  }

  return (
    <Card>
      <CardHeader>
        <div className="flex items-start justify-between gap-4">
          <div className="space-y-1">
            <CardTitle>Two-factor authentication</CardTitle>
            <CardDescription>
              Ask for a code from an authenticator app (such as 1Password, Google Authenticator or Authy) when you sign
              in.
            </CardDescription>
          </div>
          <span
            className={
              enabled
                ? "inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700"
                : "inline-flex shrink-0 items-center gap-1 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700"
            }
          >
            {enabled ? (
              <ShieldCheck aria-hidden="true" className="h-3.5 w-3.5" />
            ) : (
              <ShieldOff aria-hidden="true" className="h-3.5 w-3.5" />
            )}
            {enabled ? "On" : "Off"}
          </span>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        {error ? <Alert tone="error">{error}</Alert> : null}

        {stage.kind === "idle" ? (
          <div className="flex flex-wrap gap-3">
            {enabled ? (
              <>
                <Button variant="secondary" onClick={() => setStage({ kind: "password", action: "codes" })}>
                  New backup codes
                </Button>
                <Button variant="danger" onClick={() => setStage({ kind: "password", action: "disable" })}>
                  Turn off two-factor
                </Button>
              </>
            ) : (
              <Button onClick={() => setStage({ kind: "password", action: "enable" })}>Enable two-factor</Button>
            )}
          </div>
        ) : null}

        {stage.kind === "password" ? (
          <form className="max-w-md space-y-4" onSubmit={onPassword}>
            <PasswordField
              id="two-factor-password"
              label="Confirm your password"
              kind="current"
              autoFocus
              {...passwordForm.register("password")}
            />
            <WithCancel onCancel={reset}>
              <Button type="submit" variant={stage.action === "disable" ? "danger" : "primary"} disabled={busy}>
                {busy ? "Checking..." : stage.action === "disable" ? "Turn off" : "Continue"}
              </Button>
            </WithCancel>
          </form>
        ) : null}

        {stage.kind === "scan" ? (
          <form className="space-y-4" onSubmit={onConfirm}>
            <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
              <li>Scan this QR code with your authenticator app, or type in the setup key.</li>
              <li>Enter the 6-digit code the app shows to finish.</li>
            </ol>
            <div className="flex flex-col gap-6 sm:flex-row sm:items-center">
              <img
                src={stage.qr}
                alt="QR code to add Bookplate to your authenticator app"
                width={200}
                height={200}
                className="rounded-lg border border-slate-200"
              />
              <div className="space-y-2">
                <p className="text-sm font-medium text-slate-700">Setup key</p>
                <code
                  data-testid="totp-secret"
                  className="block break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900"
                >
                  {stage.secret}
                </code>
              </div>
            </div>
            <div className="max-w-xs">
              <Field
                id="totp-code"
                label="6-digit code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]{6,7}"
                maxLength={7}
                required
                {...codeForm.register("code")}
                className="font-mono tracking-widest"
              />
            </div>
            <WithCancel onCancel={reset}>
              <Button type="submit" disabled={busy}>
                {busy ? "Verifying..." : "Verify and turn on"}
              </Button>
            </WithCancel>
          </form>
        ) : null}

        {stage.kind === "codes" ? (
          <div className="space-y-4">
            <Alert tone="warning">
              Save these backup codes somewhere safe. Each one signs you in once if you lose your authenticator app.
              They will not be shown again.
            </Alert>
            <ul
              aria-label="Backup codes"
              className="grid max-w-md grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900"
            >
              {stage.backupCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <div className="flex gap-3">
              <Button
                variant="secondary"
                onClick={() => {
                  navigator.clipboard
                    ?.writeText(stage.backupCodes.join("\n"))
                    .then(() => toast.success("Copied to clipboard!"))
                    .catch(() => toast.error("Could not copy; please write them down"));
                }}
              >
                Copy codes
              </Button>
              <Button onClick={reset}>I have saved them</Button>
            </div>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** A step's submit button (`children`) with Cancel, which goes back to the start. */
function WithCancel({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <div className="flex gap-3">
      {children}
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
