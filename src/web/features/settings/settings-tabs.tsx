// The settings screens share one place in the menu; these tabs move between them.
import { NavLink } from "react-router";
import { cn } from "../../lib/utils.ts";

const TABS = [
  { to: "/dashboard/settings", label: "Site" },
  { to: "/dashboard/home", label: "Home Page" },
  { to: "/dashboard/contact", label: "Contact" },
  { to: "/dashboard/newsletter", label: "Newsletter" },
  // The readers themselves, next to how they sign up (the main menu has no room for a ninth item).
  { to: "/dashboard/subscribers", label: "Subscribers" },
  { to: "/dashboard/legal", label: "Legal" },
  { to: "/dashboard/domain", label: "Domain" },
] as const;

export function SettingsTabs() {
  return (
    <nav aria-label="Settings" className="-mt-4 mb-6 flex flex-wrap gap-x-1 border-b border-slate-200">
      {TABS.map((t) => (
        <NavLink
          key={t.to}
          to={t.to}
          className={({ isActive }) =>
            cn(
              "-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand-500",
              isActive
                ? "border-brand-600 text-brand-700"
                : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
            )
          }
        >
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}
