// The back office at /admin/{tab}. Staff see real figures; any other signed-in user sees the same
// screens filled with sample figures under the yellow Demo Mode banner (the API gives them none).
import { Copy, LogOut, ShieldCheck } from "lucide-react";
import { Link, useParams } from "react-router";
import { ADMIN_MESSAGES, ADMIN_TABS, type AdminAccess, type AdminTab } from "../../../shared/schemas/admin.ts";
import { Button } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { authClient } from "../../lib/auth-client.ts";
import { cn } from "../../lib/utils.ts";
import { useAdminAccess } from "./admin-api.ts";
import { copyText, LoadFailed, Loading } from "./admin-ui.tsx";
import { AnalyticsTab } from "./analytics-tab.tsx";
import { FinancialTab } from "./financial-tab.tsx";
import { OverviewTab } from "./overview-tab.tsx";
import { SettingsTab } from "./settings-tab.tsx";
import { SupportTab } from "./support-tab.tsx";
import { UsersTab } from "./users-tab.tsx";

const LABELS: Record<AdminTab, string> = {
  overview: "Overview",
  users: "Users",
  financial: "Financial",
  analytics: "Analytics",
  support: "Support",
  settings: "Settings",
};

/** The tab in the URL, or overview for anything unknown (the spec). */
export function tabFrom(param: string | undefined): AdminTab {
  return (ADMIN_TABS as readonly string[]).includes(param ?? "") ? (param as AdminTab) : "overview";
}

export function AdminPage() {
  const { tab: param } = useParams();
  const tab = tabFrom(param);
  const access = useAdminAccess();

  async function signOut() {
    try {
      await authClient.signOut();
    } catch {
      // Signed out here either way.
    }
    window.location.replace("/");
  }

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-6 py-4">
          <div className="flex items-center gap-4">
            <Logo to="/admin" />
            <div>
              <h1 className="text-lg font-semibold text-slate-900">Bookplate Admin</h1>
              <p className="text-sm text-slate-600">Super User Dashboard</p>
            </div>
          </div>
          <div className="flex items-center gap-3">
            {access.data?.staff ? (
              <span className="inline-flex items-center gap-1 text-sm text-slate-600">
                <ShieldCheck aria-hidden="true" className="h-4 w-4 text-emerald-600" />
                {access.data.email} · {access.data.role === "super_admin" ? "Super admin" : "Admin"}
              </span>
            ) : null}
            <Button variant="secondary" size="sm" onClick={signOut}>
              <LogOut aria-hidden="true" className="h-4 w-4" /> Sign Out
            </Button>
          </div>
        </div>
        <nav aria-label="Admin sections" className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-6">
          {ADMIN_TABS.map((t) => (
            <Link
              key={t}
              to={`/admin/${t}`}
              aria-current={t === tab ? "page" : undefined}
              className={cn(
                "-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand-500",
                t === tab
                  ? "border-brand-600 text-brand-700"
                  : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
              )}
            >
              {LABELS[t]}
            </Link>
          ))}
        </nav>
      </header>
      <main className="mx-auto max-w-6xl space-y-6 px-6 py-8">
        {access.isPending ? (
          <Loading label="Checking your access" />
        ) : access.isError ? (
          <LoadFailed what="your access" onRetry={() => access.refetch()} />
        ) : (
          <>
            {access.data.staff ? null : <DemoBanner access={access.data} />}
            <TabBody tab={tab} access={access.data} />
          </>
        )}
      </main>
    </div>
  );
}

function TabBody({ tab, access }: { tab: AdminTab; access: AdminAccess }) {
  const demo = !access.staff;
  const superAdmin = access.role === "super_admin" && access.staff;
  switch (tab) {
    case "users":
      return <UsersTab demo={demo} superAdmin={superAdmin} me={access.userId} />;
    case "financial":
      return <FinancialTab demo={demo} superAdmin={superAdmin} />;
    case "analytics":
      return <AnalyticsTab demo={demo} />;
    case "support":
      return <SupportTab demo={demo} />;
    case "settings":
      return <SettingsTab demo={demo} />;
    default:
      return <OverviewTab demo={demo} />;
  }
}

function DemoBanner({ access }: { access: AdminAccess }) {
  const command = `npm run admin -- grant ${access.email} super_admin`;
  const sql = `update "user" set role = 'super_admin' where id = '${access.userId}';`;
  return (
    <section
      aria-labelledby="demo-mode-title"
      className="rounded-2xl border border-yellow-300 bg-yellow-50 p-5 text-sm text-yellow-950"
    >
      <h2 id="demo-mode-title" className="text-base font-semibold">
        Demo Mode
      </h2>
      <p className="mt-1">
        Your account has no admin role, so every figure below is <strong>sample data</strong>, not anyone's real data,
        and the actions are switched off. To see the real back office:
      </p>
      <ol className="mt-3 list-decimal space-y-3 pl-5">
        <li>
          On the server, run this (with the embedded database, stop the server first):
          <CopyLine value={command} label="Copy command" message={ADMIN_MESSAGES.commandCopied} />
        </li>
        <li>
          Or, on PostgreSQL, run this SQL:
          <CopyLine value={sql} label="Copy SQL" message={ADMIN_MESSAGES.sqlCopied} />
        </li>
        <li>
          Your user ID:
          <CopyLine value={access.userId} label="Copy user ID" message={ADMIN_MESSAGES.userIdCopied} />
        </li>
        <li>Reload this page.</li>
      </ol>
    </section>
  );
}

function CopyLine({ value, label, message }: { value: string; label: string; message: string }) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <code className="rounded-md bg-white/80 px-2 py-1 font-mono text-xs break-all text-slate-900 ring-1 ring-yellow-200">
        {value}
      </code>
      <Button variant="secondary" size="sm" onClick={() => copyText(value, message)}>
        <Copy aria-hidden="true" className="h-3.5 w-3.5" /> {label}
      </Button>
    </div>
  );
}
