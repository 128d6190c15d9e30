import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Logo } from "../../components/ui/logo.tsx";

/** The frame every signed-out screen shares: brand, one card, a way back home. */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-brand-50 via-white to-white">
      <header className="mx-auto flex w-full max-w-5xl items-center justify-between px-6 py-6">
        <Logo />
        {/* The home page is server-rendered: a full page load. */}
        <a
          href="/"
          className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to home
        </a>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-16 pt-4 sm:pt-10">
        <div className="w-full max-w-md">
          <div className="mb-6 text-center">
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
            {subtitle ? <p className="mt-2 text-sm text-slate-600">{subtitle}</p> : null}
          </div>
          <Card>
            <CardContent className="space-y-5 p-6 sm:p-8">{children}</CardContent>
          </Card>
          {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
        </div>
      </main>
    </div>
  );
}
