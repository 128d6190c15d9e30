// Every SPA path. Keep in step with src/shared/app-routes.ts: the server answers 404 for any
// path not listed there, and serves index.html for the rest.
import type { ComponentType } from "react";
import { createBrowserRouter, Outlet, redirect } from "react-router";
import { ErrorScreen } from "./error-screen.tsx";
import { NotFound } from "./not-found.tsx";
import { ForgotPasswordRoute } from "./routes/forgot-password.tsx";
import { LoginRoute } from "./routes/login.tsx";
import { ResetPasswordRoute } from "./routes/reset-password.tsx";
import { SignupRoute } from "./routes/signup.tsx";
import { VerifyEmailRoute } from "./routes/verify-email.tsx";
import { SectionComingSoon } from "./section-coming-soon.tsx";
import {
  choosePlanLoader,
  dashboardLoader,
  onboardingLoader,
  pricingLoader,
  redirectIfSignedIn,
  requireSession,
} from "./session-loaders.ts";
import { SignedInLayout } from "./signed-in-layout.tsx";

// Heavy screens (rich-text editor, drag and drop, QR codes) load on first visit, so the
// sign-in page stays small.
const books = () => import("./routes/books.tsx");
const bio = () => import("./routes/bio.tsx");
const account = () => import("./routes/account.tsx");
const onboarding = () => import("./routes/onboarding.tsx");
const dashboard = () => import("./routes/dashboard.tsx");
const pricing = () => import("./routes/pricing.tsx");
const settings = () => import("./routes/settings.tsx");
const blog = () => import("./routes/blog.tsx");
const newsletters = () => import("./routes/newsletters.tsx");
const stats = () => import("./routes/stats.tsx");
const subscribers = () => import("./routes/subscribers.tsx");
const admin = () => import("./routes/admin.tsx");
const help = () => import("./routes/help.tsx");

/** A route's `lazy`: the screen `name` of a module loaded on first visit. */
function screen<M extends Record<string, ComponentType>>(load: () => Promise<M>, name: keyof M) {
  return async () => ({ Component: (await load())[name] });
}

function Loading() {
  return (
    <div className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-100 border-t-brand-500" />
      <span className="sr-only">Loading...</span>
    </div>
  );
}

export const router = createBrowserRouter([
  {
    element: <Outlet />,
    errorElement: <ErrorScreen />,
    hydrateFallbackElement: <Loading />,
    children: [
      { path: "/main", loader: () => redirect("/") },
      { path: "/login", element: <LoginRoute />, loader: redirectIfSignedIn },
      { path: "/signup", element: <SignupRoute />, loader: redirectIfSignedIn },
      { path: "/verify-email", element: <VerifyEmailRoute /> },
      { path: "/forgot-password", element: <ForgotPasswordRoute /> },
      { path: "/reset-password", element: <ResetPasswordRoute /> },
      { path: "/onboarding", loader: onboardingLoader, lazy: screen(onboarding, "OnboardingRoute") },
      // The public pricing page is server-rendered (src/marketing); its plan buttons come here.
      { path: "/pricing/choose", loader: choosePlanLoader, element: <Loading /> },
      // The signed-in author's plan screen: checkout, or a plan change with its confirmation.
      { path: "/dashboard/plan", loader: pricingLoader, lazy: screen(pricing, "PricingRoute") },
      // The back office has its own header; signed-out visitors go to /login.
      { path: "/admin", loader: requireSession, lazy: screen(admin, "AdminRoute") },
      { path: "/admin/:tab", loader: requireSession, lazy: screen(admin, "AdminRoute") },
      {
        element: <SignedInLayout />,
        loader: requireSession,
        children: [
          { path: "/dashboard", loader: dashboardLoader, lazy: screen(dashboard, "DashboardRoute") },
          { path: "/account", lazy: screen(account, "AccountRoute") },
          { path: "/dashboard/books", lazy: screen(books, "BooksRoute") },
          { path: "/dashboard/series", lazy: screen(books, "SeriesRoute") },
          { path: "/dashboard/bio", lazy: screen(bio, "BioRoute") },
          { path: "/dashboard/blog", lazy: screen(blog, "BlogRoute") },
          { path: "/dashboard/newsletters", lazy: screen(newsletters, "NewslettersRoute") },
          { path: "/dashboard/stats", lazy: screen(stats, "StatsRoute") },
          { path: "/dashboard/subscribers", lazy: screen(subscribers, "SubscribersRoute") },
          { path: "/dashboard/settings", lazy: screen(settings, "SettingsRoute") },
          { path: "/dashboard/contact", lazy: screen(settings, "ContactSettingsRoute") },
          { path: "/dashboard/newsletter", lazy: screen(settings, "NewsletterSettingsRoute") },
          { path: "/dashboard/legal", lazy: screen(settings, "LegalSettingsRoute") },
          { path: "/dashboard/home", lazy: screen(settings, "HomePageSettingsRoute") },
          { path: "/dashboard/domain", lazy: screen(settings, "DomainSettingsRoute") },
          { path: "/dashboard/help", lazy: screen(help, "HelpRoute") },
          { path: "/add-book", lazy: screen(books, "AddBookRoute") },
          { path: "/edit-book/:id", lazy: screen(books, "EditBookRoute") },
          // Any other dashboard address: the spec's 'Section Coming Soon', inside the dashboard.
          { path: "/dashboard/*", element: <SectionComingSoon /> },
        ],
      },
      { path: "*", element: <NotFound /> },
    ],
  },
]);
