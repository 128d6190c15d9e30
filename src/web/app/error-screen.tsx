import { AlertTriangle } from "lucide-react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Button } from "../components/ui/button.tsx";
import { NotFound } from "./not-found.tsx";

export function ErrorScreen() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const details =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : isRouteErrorResponse(error)
        ? `${error.status} ${error.statusText}`
        : String(error);
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div
        role="alert"
        className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm"
      >
        <AlertTriangle aria-hidden="true" className="mx-auto h-12 w-12 text-red-500" />
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Something went wrong</h1>
        <p className="mt-2 text-slate-600">We encountered an unexpected error. Please try refreshing the page.</p>
        <details className="mt-6 rounded-lg bg-slate-50 p-3 text-left text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">Error details</summary>
          <pre className="mt-2 whitespace-pre-wrap break-words font-mono text-xs text-slate-600">{details}</pre>
        </details>
        <Button className="mt-6 w-full" onClick={() => window.location.reload()}>
          Try Again
        </Button>
      </div>
    </div>
  );
}
