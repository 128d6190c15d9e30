import { Link } from "react-router";

const logoClass =
  "inline-flex items-center gap-2 rounded-md font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500";

/** `to` an app screen moves within the app; the home page is server-rendered, so a full load. */
export function Logo({ to = "/" }: { to?: string }) {
  const mark = (
    <>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <rect width="32" height="32" rx="7" fill="#6366f1" />
        <path d="M9 7h10v18l-5-3-5 3z" fill="#fff" />
      </svg>
      <span className="text-lg tracking-tight">Bookplate</span>
    </>
  );
  return to === "/" ? (
    <a href="/" className={logoClass}>
      {mark}
    </a>
  ) : (
    <Link to={to} className={logoClass}>
      {mark}
    </Link>
  );
}
