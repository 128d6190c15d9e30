import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { authClient, useSession } from "../../lib/auth-client.ts";
import { ChangePasswordCard } from "./change-password-card.tsx";
import { SessionsCard } from "./sessions-card.tsx";
import { TwoFactorCard } from "./two-factor-card.tsx";
import { YourDataCard } from "./your-data-card.tsx";

export function AccountPage() {
  const { data: session } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<"this" | "all" | null>(null);

  async function signOut(scope: "this" | "all") {
    setBusy(scope);
    try {
      // Everywhere: end every session including this one, then clear this browser's cookie.
      if (scope === "all") await authClient.revokeSessions();
      await authClient.signOut();
    } catch {
      // A sign-out the server refuses (session already gone) still ends here.
    } finally {
      setBusy(null);
    }
    toast.success(scope === "all" ? "Signed out of all devices" : "Signed out");
    navigate("/login", { replace: true });
  }

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Account</h1>
        <p className="mt-1 text-sm text-slate-600">
          {session ? (
            <>
              Signed in as <strong className="text-slate-900">{session.user.name}</strong> ({session.user.email})
            </>
          ) : null}
        </p>
      </div>
      <ChangePasswordCard />
      <TwoFactorCard />
      <SessionsCard />
      <Card>
        <CardHeader>
          <CardTitle>Sign out</CardTitle>
          <CardDescription>Signing out of all devices also ends this session.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-3">
          <Button variant="secondary" disabled={busy !== null} onClick={() => signOut("this")}>
            {busy === "this" ? "Signing out..." : "Sign out of this device"}
          </Button>
          <Button variant="danger" disabled={busy !== null} onClick={() => signOut("all")}>
            {busy === "all" ? "Signing out..." : "Sign out of all devices"}
          </Button>
        </CardContent>
      </Card>
      {session ? <YourDataCard email={session.user.email} /> : null}
    </div>
  );
}
