import type { MarketingPage } from "../document.tsx";
import { buttonClass } from "../layout.tsx";

export function notFoundPage(): MarketingPage {
  return {
    status: 404,
    title: "Page not found",
    description: "This page does not exist.",
    noindex: true,
    body: (
      <div className="mx-auto max-w-xl px-6 py-24 text-center">
        <p className="text-sm font-semibold text-brand-700">404</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900">Oops! Page not found</h1>
        <p className="mt-4 text-slate-600">The page you were looking for is not here. It may have moved.</p>
        <a href="/" className={`${buttonClass.primary} mt-8`}>
          Return to home
        </a>
      </div>
    ),
  };
}
