import {
  BarChart3,
  BookOpen,
  LayoutDashboard,
  LifeBuoy,
  LogOut,
  Newspaper,
  PenLine,
  Settings,
  UserRound,
} from "lucide-react";
import { NavLink, Outlet, useLocation, useNavigate } from "react-router";
import { Button } from "../components/ui/button.tsx";
import { Logo } from "../components/ui/logo.tsx";
import { authClient, useSession } from "../lib/auth-client.ts";
import { cn } from "../lib/utils.ts";

const navClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "inline-flex items-center gap-1.5 rounded-lg px-2.5 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500",
    isActive ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
  );

/** The settings screens share one menu item (tabs move between them). */
const SETTINGS_PATHS = [
  "/dashboard/settings",
  "/dashboard/home",
  "/dashboard/contact",
  "/dashboard/newsletter",
  "/dashboard/legal",
];

export function SignedInLayout() {
  const { data: session } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  async function signOut() {
    try {
      await authClient.signOut();
    } catch {
      // The spec: sign-out ignores the server's refusals; the person is signed out here either way.
    }
    navigate("/login", { replace: true });
  }

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        {/* Wide screens: logo, menu, account in one row. Phones: the menu wraps onto its own row. */}
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-6 py-3">
          <Logo to="/dashboard" />
          <nav
            aria-label="Main"
            className="order-last flex w-full flex-wrap items-center gap-0.5 lg:order-none lg:w-auto lg:flex-1"
          >
            <NavLink to="/dashboard" end className={navClass}>
              <LayoutDashboard aria-hidden="true" className="h-4 w-4" /> Dashboard
            </NavLink>
            <NavLink
              to="/dashboard/books"
              className={({ isActive }) => navClass({ isActive: isActive || pathname === "/dashboard/series" })}
            >
              <BookOpen aria-hidden="true" className="h-4 w-4" /> Books
            </NavLink>
            <NavLink to="/dashboard/bio" className={navClass}>
              <PenLine aria-hidden="true" className="h-4 w-4" /> Bio
            </NavLink>
            <NavLink to="/dashboard/blog" className={navClass}>
              <Newspaper aria-hidden="true" className="h-4 w-4" /> Blog
            </NavLink>
            <NavLink to="/dashboard/stats" className={navClass}>
              <BarChart3 aria-hidden="true" className="h-4 w-4" /> Stats
            </NavLink>
            <NavLink
              to="/dashboard/settings"
              className={() => navClass({ isActive: SETTINGS_PATHS.includes(pathname) })}
            >
              <Settings aria-hidden="true" className="h-4 w-4" /> Settings
            </NavLink>
            <NavLink to="/account" className={navClass}>
              <UserRound aria-hidden="true" className="h-4 w-4" /> Account
            </NavLink>
            <NavLink to="/dashboard/help" className={navClass}>
              <LifeBuoy aria-hidden="true" className="h-4 w-4" /> Help
            </NavLink>
          </nav>
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
