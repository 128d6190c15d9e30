// The header and footer every marketing page shares.
import type { ReactNode } from "react";

export const NAV = [
  { href: "/features", label: "Features" },
  { href: "/pricing", label: "Pricing" },
  { href: "/faq", label: "FAQ" },
  { href: "/demo", label: "Demo site" },
] as const;

export const FOOTER = [
  {
    title: "Product",
    links: [
      { href: "/features", label: "Features" },
      { href: "/pricing", label: "Pricing" },
      { href: "/demo", label: "Demo site" },
      { href: "/faq", label: "FAQ" },
    ],
  },
  {
    title: "Company",
    links: [
      { href: "/our-story", label: "Our story" },
      { href: "/contact", label: "Contact" },
    ],
  },
  {
    title: "Legal",
    links: [
      { href: "/terms", label: "Terms" },
      { href: "/privacy-legal", label: "Privacy" },
      { href: "/cookies", label: "Cookies" },
    ],
  },
] as const;

const focus = "rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

export function LogoMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7" width="28" height="28">
      <rect width="32" height="32" rx="7" fill="#6366f1" />
      <path d="M9 7h10v18l-5-3-5 3z" fill="#fff" />
    </svg>
  );
}

export const buttonClass = {
  primary: `inline-flex items-center justify-center rounded-lg bg-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 ${focus}`,
  secondary: `inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-5 py-3 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 ${focus}`,
};

/**
 * `signedIn`: the visitor's browser holds a session (its cookie is there, not checked: an expired
 * one leads to the sign-in page): the header offers the dashboard instead of signing in or up.
 */
export function Layout({ path, signedIn, children }: { path: string; signedIn: boolean; children: ReactNode }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded-md focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-6 py-4">
          <a href="/" className={`inline-flex items-center gap-2 font-semibold text-slate-900 ${focus}`}>
            <LogoMark />
            <span className="text-lg tracking-tight">Bookplate</span>
          </a>
          <nav aria-label="Main" className="order-last flex w-full flex-wrap gap-1 sm:order-none sm:w-auto">
            {NAV.map((l) => (
              <a
                key={l.href}
                href={l.href}
                aria-current={path === l.href ? "page" : undefined}
                className={`px-3 py-2 text-sm font-medium ${path === l.href ? "text-brand-700" : "text-slate-700 hover:text-slate-900"} ${focus}`}
              >
                {l.label}
              </a>
            ))}
          </nav>
          <div className="flex items-center gap-2">
            {signedIn ? (
              <a href="/dashboard" className={buttonClass.primary.replace("px-5 py-3", "px-4 py-2")}>
                Your dashboard
              </a>
            ) : (
              <>
                <a
                  href="/login"
                  className={`px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900 ${focus}`}
                >
                  Sign in
                </a>
                <a href="/signup" className={buttonClass.primary.replace("px-5 py-3", "px-4 py-2")}>
                  Start free trial
                </a>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main">{children}</main>
      <footer className="mt-24 border-t border-slate-200 bg-slate-50">
        <div className="mx-auto grid max-w-6xl gap-8 px-6 py-12 sm:grid-cols-4">
          <div>
            <a href="/" className={`inline-flex items-center gap-2 font-semibold text-slate-900 ${focus}`}>
              <LogoMark />
              <span>Bookplate</span>
            </a>
            <p className="mt-3 text-sm text-slate-600">Websites for independent authors.</p>
          </div>
          {FOOTER.map((group) => (
            <nav key={group.title} aria-label={group.title}>
              <h2 className="text-sm font-semibold text-slate-900">{group.title}</h2>
              <ul className="mt-3 space-y-2">
                {group.links.map((l) => (
                  <li key={l.href}>
                    <a href={l.href} className={`text-sm text-slate-600 hover:text-slate-900 ${focus}`}>
                      {l.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <p className="border-t border-slate-200 py-6 text-center text-sm text-slate-600">
          © {new Date().getUTCFullYear()} Bookplate
        </p>
      </footer>
    </>
  );
}

export function PageHeading({ title, lead }: { title: string; lead?: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl px-6 pt-16 pb-10 text-center">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">{title}</h1>
      {lead ? <p className="mt-4 text-lg text-slate-600">{lead}</p> : null}
    </div>
  );
}

/** Long-form text (our story, legal pages). */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl space-y-4 px-6 text-base leading-7 text-slate-700 [&_a]:text-brand-700 [&_a]:underline [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-1">
      {children}
    </div>
  );
}
