// 'Your data': download everything in one archive, or delete the account for good. Deleting asks
// for the account's email address typed out, cancels the subscription, and removes the site, its
// books, posts, subscribers, messages and pictures; the subdomain is free again.
import { useQueryClient } from "@tanstack/react-query";
import { Download, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Input } from "../../components/ui/input.tsx";
import { client, errorMessage, read } from "../../lib/api.ts";
import { authClient } from "../../lib/auth-client.ts";

export function YourDataCard({ email }: { email: string }) {
  const id = useId();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  async function remove() {
    if (!matches) return setError(ACCOUNT_MESSAGES.confirmMismatch);
    setBusy(true);
    setError(null);
    try {
      await read(client.account.delete.$post({ json: { confirmation: typed } }));
    } catch (err) {
      setBusy(false);
      return setError(errorMessage(err));
    }
    // The account is gone with its sessions: forget everything this tab knew about it.
    qc.clear();
    await authClient.signOut().catch(() => undefined);
    toast.success(ACCOUNT_MESSAGES.deleted);
    navigate("/login", { replace: true });
  }

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Your data</CardTitle>
          <CardDescription>
            One ZIP file with your profile, site settings, books (with their links, genres and reviews), blog posts,
            newsletter subscribers, contact messages and every picture you uploaded.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="secondary">
            <a href="/api/account/export" download>
              <Download className="h-4 w-4" aria-hidden="true" /> Download everything
            </a>
          </Button>
        </CardContent>
      </Card>
      <Card className="border-red-200">
        <CardHeader>
          <CardTitle className="text-red-700">Delete account</CardTitle>
          <CardDescription>
            This cancels your subscription and permanently deletes your website, books, posts, subscribers, messages and
            pictures. Your subdomain becomes available to others. It cannot be undone: download your data first.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              void remove();
            }}
          >
            <div className="space-y-1.5">
              <label htmlFor={id} className="block text-sm font-medium text-slate-700">
                Type <strong className="font-semibold text-slate-900">{email}</strong> to confirm
              </label>
              <Input
                id={id}
                type="email"
                autoComplete="off"
                spellCheck={false}
                value={typed}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(e) => {
                  setTyped(e.target.value);
                  setError(null);
                }}
                className="max-w-md"
              />
              {error && (
                <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
            <Button type="submit" variant="danger" disabled={busy || !matches}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              {busy ? "Deleting..." : "Delete account permanently"}
            </Button>
          </form>
        </CardContent>
      </Card>
    </>
  );
}
