import { LogOut } from "lucide-react";
import { Outlet } from "react-router";
import { Button } from "../components/ui/button.tsx";
import { Logo } from "../components/ui/logo.tsx";
import { useSession } from "../lib/auth-client.ts";
import { useSignOut } from "../lib/use-sign-out.ts";
import { MainNav } from "./main-nav.tsx";

export function SignedInLayout() {
  const { data: session } = useSession();
  const signOut = useSignOut();

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        {/* Wide screens: logo, menu, account in one row. Narrower: the menu is a row of its own that scrolls. */}
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-6 py-3">
          <Logo to="/dashboard" />
          <MainNav className="order-last w-full lg:order-none lg:w-auto lg:flex-1" />
          <div className="flex items-center gap-3">
            <Button
              variant="secondary"
              size="sm"
              onClick={signOut}
              title={session ? `Signed in as ${session.user.email}` : undefined}
            >
              <LogOut aria-hidden="true" className="h-4 w-4" /> Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">
        <Outlet />
      </main>
    </div>
  );
}
