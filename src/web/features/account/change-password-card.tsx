import { useState } from "react";
import { toast } from "sonner";
import { changePasswordSchema } from "../../../shared/schemas/auth.ts";
import { NewPasswordField, PasswordField } from "../../components/account-fields.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { authClient, authErrorMessage } from "../../lib/auth-client.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";

export function ChangePasswordCard() {
  const form = useZodForm(changePasswordSchema, { currentPassword: "", newPassword: "", revokeOtherSessions: true });
  const busy = form.formState.isSubmitting;
  // One message above the form, as before, rather than one under each field.
  const [error, setError] = useState<string | null>(null);

  const onSubmit = form.handleSubmit(
    async (body) => {
      setError(null);
      try {
        const { error: err } = await authClient.changePassword(body);
        if (err) setError(authErrorMessage(err, "Failed to change password"));
        else {
          form.reset({ ...form.getValues(), currentPassword: "", newPassword: "" });
          toast.success("Password changed");
        }
      } catch {
        setError("An unexpected error occurred. Please try again.");
      }
    },
    (found) => setError(found.newPassword?.message ?? found.currentPassword?.message ?? null),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change password</CardTitle>
        <CardDescription>Use at least 8 characters. A passphrase of a few words is easy to remember.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="max-w-md space-y-4" onSubmit={onSubmit}>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <PasswordField
            id="current-password"
            label="Current password"
            kind="current"
            {...form.register("currentPassword")}
          />
          <NewPasswordField {...form.register("newPassword")} />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300 accent-brand-600"
              {...form.register("revokeOtherSessions")}
            />
            Sign out of my other devices
          </label>
          <SaveButton busy={busy}>Change password</SaveButton>
        </form>
      </CardContent>
    </Card>
  );
}
