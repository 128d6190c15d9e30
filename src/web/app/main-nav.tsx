// The signed-in author's main menu. On a wide screen it sits in the header's one row; narrower, it
// is one row of its own that scrolls sideways (ADR 061) instead of wrapping onto two or three:
// every item stays a plain link in the tab order, the current one marked and kept in view, and a
// faded edge says there is more on that side.
import {
  BarChart3,
  BookOpen,
  LayoutDashboard,
  LifeBuoy,
  type LucideIcon,
  Mail,
  Newspaper,
  PenLine,
  Settings,
  UserRound,
} from "lucide-react";
import { type CSSProperties, useEffect, useLayoutEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { cn } from "../lib/utils.ts";

type Item = { to: string; label: string; icon: LucideIcon; current: (pathname: string) => boolean };

/** The settings screens share one menu item (tabs move between them). */
const SETTINGS_PATHS = [
  "/dashboard/settings",
  "/dashboard/home",
  "/dashboard/contact",
  "/dashboard/newsletter",
  "/dashboard/subscribers",
  "/dashboard/legal",
  "/dashboard/domain",
];

const MAIN_NAV: Item[] = [
  { to: "/dashboard", label: "Dashboard", icon: LayoutDashboard, current: (p) => p === "/dashboard" },
  {
    to: "/dashboard/books",
    label: "Books",
    icon: BookOpen,
    current: (p) =>
      p.startsWith("/dashboard/books") || p === "/dashboard/series" || p === "/add-book" || p.startsWith("/edit-book/"),
  },
  { to: "/dashboard/bio", label: "Bio", icon: PenLine, current: (p) => p.startsWith("/dashboard/bio") },
  { to: "/dashboard/blog", label: "Blog", icon: Newspaper, current: (p) => p.startsWith("/dashboard/blog") },
  {
    to: "/dashboard/newsletters",
    label: "Newsletters",
    icon: Mail,
    current: (p) => p.startsWith("/dashboard/newsletters"),
  },
  { to: "/dashboard/stats", label: "Stats", icon: BarChart3, current: (p) => p.startsWith("/dashboard/stats") },
  { to: "/dashboard/settings", label: "Settings", icon: Settings, current: (p) => SETTINGS_PATHS.includes(p) },
  { to: "/account", label: "Account", icon: UserRound, current: (p) => p.startsWith("/account") },
  { to: "/dashboard/help", label: "Help", icon: LifeBuoy, current: (p) => p.startsWith("/dashboard/help") },
];

/** Fades the sides of the row that have more items beyond them. */
function edgeMask(more: { before: boolean; after: boolean }): CSSProperties {
  if (!more.before && !more.after) return {};
  const from = more.before ? "transparent 0, #000 1.5rem" : "#000 0";
  const to = more.after ? "#000 calc(100% - 1.5rem), transparent 100%" : "#000 100%";
  const mask = `linear-gradient(to right, ${from}, ${to})`;
  return { maskImage: mask, WebkitMaskImage: mask };
}

export function MainNav({ className }: { className?: string }) {
  const { pathname } = useLocation();
  const row = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  useEffect(() => {
    const el = row.current;
    if (!el) return;
    const update = () =>
      setMore({ before: el.scrollLeft > 1, after: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 });
    update();
    el.addEventListener("scroll", update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      resized.disconnect();
    };
  }, []);

  // A phone opened on Settings or Help sees where it is: the current item is brought into the row.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes
  useLayoutEffect(() => {
    const el = row.current;
    const current = el?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!el || !current || el.scrollWidth <= el.clientWidth) return;
    const left = current.offsetLeft - (el.clientWidth - current.offsetWidth) / 2;
    el.scrollLeft = Math.max(0, Math.min(left, el.scrollWidth - el.clientWidth));
  }, [pathname]);

  return (
    <nav aria-label="Main" className={className}>
      <ul
        ref={row}
        style={edgeMask(more)}
        className={cn(
          // Phones: one row that scrolls, running to the screen's edges; the padding keeps a focused
          // item clear of the faded edge.
          "relative -mx-6 flex items-center gap-0.5 overflow-x-auto scroll-px-6 px-6 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden",
          // Beside the logo on a wide screen: words only, so the nine items keep to one row.
          "lg:mx-0 lg:flex-wrap lg:overflow-visible lg:px-0",
        )}
      >
        {MAIN_NAV.map(({ to, label, icon: Icon, current }) => {
          const active = current(pathname);
          return (
            <li key={to} className="shrink-0">
              <Link
                to={to}
                aria-current={active ? "page" : undefined}
                // A partly hidden item reached with Tab comes wholly into the row (browsers differ).
                onFocus={(e) => e.currentTarget.scrollIntoView({ block: "nearest", inline: "nearest" })}
                className={cn(
                  "inline-flex items-center gap-1.5 whitespace-nowrap rounded-lg px-3 py-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500 sm:px-2.5 sm:py-2",
                  active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
                )}
              >
                <Icon aria-hidden="true" className="hidden h-4 w-4 sm:block lg:hidden" /> {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
