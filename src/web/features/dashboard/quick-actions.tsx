// The dashboard's quick actions: one card for each section the author edits.
import { BookOpen, Eye, Mail, Newspaper, PenLine, Settings, UserRound } from "lucide-react";
import { Link } from "react-router";

/** The sections, in the order of the cards. */
const ACTIONS = [
  { to: "/dashboard/books", icon: BookOpen, title: "Books", text: "Add books, covers, prices and retailer links." },
  { to: "/dashboard/bio", icon: PenLine, title: "Bio", text: "The story readers see on your About page." },
  { to: "/dashboard/blog", icon: Newspaper, title: "Blog", text: "News, events and thoughts for your readers." },
  {
    to: "/dashboard/contact",
    icon: Mail,
    title: "Contact",
    text: "Where messages go, anti-spam and your social links.",
  },
  {
    to: "/dashboard/settings",
    icon: Settings,
    title: "Site Settings",
    text: "Your site's name, pages, fonts and colours.",
  },
  { to: "/account", icon: UserRound, title: "Account", text: "Password, two-factor sign-in and devices." },
] as const;

/** `subdomain`: the author's site, previewed from the last card (none before onboarding). */
export function QuickActions({ subdomain }: { subdomain: string | undefined }) {
  return (
    <section aria-labelledby="quick-actions">
      <h2 id="quick-actions" className="text-lg font-semibold text-slate-900">
        Quick actions
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {ACTIONS.map((a) => (
          <QuickAction key={a.to} {...a} />
        ))}
        {subdomain ? (
          <QuickAction
            to={`/author/${subdomain}`}
            icon={Eye}
            title="Preview"
            text="See your site as readers do."
            external
          />
        ) : null}
      </div>
    </section>
  );
}

function QuickAction({
  to,
  icon: Icon,
  title,
  text,
  external,
}: {
  to: string;
  icon: typeof BookOpen;
  title: string;
  text: string;
  external?: boolean;
}) {
  const className =
    "block h-full rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-300 hover:shadow focus-visible:outline-2 focus-visible:outline-brand-500";
  const body = (
    <>
      <Icon aria-hidden="true" className="h-5 w-5 text-brand-600" />
      <p className="mt-3 font-semibold text-slate-900">{title}</p>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
    </>
  );
  return external ? (
    <a href={to} className={className}>
      {body}
    </a>
  ) : (
    <Link to={to} className={className}>
      {body}
    </Link>
  );
}
