// Every SPA path. Keep in step with src/shared/app-routes.ts: the server answers 404 for any
// path not listed there, and serves index.html for the rest.
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
const admin = () => import("./routes/admin.tsx");
const help = () => import("./routes/help.tsx");

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
      {
        path: "/onboarding",
        loader: onboardingLoader,
        lazy: async () => ({ Component: (await onboarding()).OnboardingRoute }),
      },
      // The public pricing page is server-rendered (src/marketing); its plan buttons come here.
      { path: "/pricing/choose", loader: choosePlanLoader, element: <Loading /> },
      // The signed-in author's plan screen: checkout, or a plan change with its confirmation.
      {
        path: "/dashboard/plan",
        loader: pricingLoader,
        lazy: async () => ({ Component: (await pricing()).PricingRoute }),
      },
      // The back office has its own header; signed-out visitors go to /login.
      { path: "/admin", loader: requireSession, lazy: async () => ({ Component: (await admin()).AdminRoute }) },
      { path: "/admin/:tab", loader: requireSession, lazy: async () => ({ Component: (await admin()).AdminRoute }) },
      {
        element: <SignedInLayout />,
        loader: requireSession,
        children: [
          {
            path: "/dashboard",
            loader: dashboardLoader,
            lazy: async () => ({ Component: (await dashboard()).DashboardRoute }),
          },
          { path: "/account", lazy: async () => ({ Component: (await account()).AccountRoute }) },
          { path: "/dashboard/books", lazy: async () => ({ Component: (await books()).BooksRoute }) },
          { path: "/dashboard/series", lazy: async () => ({ Component: (await books()).SeriesRoute }) },
          { path: "/dashboard/bio", lazy: async () => ({ Component: (await bio()).BioRoute }) },
          { path: "/dashboard/blog", lazy: async () => ({ Component: (await blog()).BlogRoute }) },
          {
            path: "/dashboard/newsletters",
            lazy: async () => ({ Component: (await newsletters()).NewslettersRoute }),
          },
          { path: "/dashboard/stats", lazy: async () => ({ Component: (await stats()).StatsRoute }) },
          { path: "/dashboard/settings", lazy: async () => ({ Component: (await settings()).SettingsRoute }) },
          { path: "/dashboard/contact", lazy: async () => ({ Component: (await settings()).ContactSettingsRoute }) },
          {
            path: "/dashboard/newsletter",
            lazy: async () => ({ Component: (await settings()).NewsletterSettingsRoute }),
          },
          { path: "/dashboard/legal", lazy: async () => ({ Component: (await settings()).LegalSettingsRoute }) },
          { path: "/dashboard/home", lazy: async () => ({ Component: (await settings()).HomePageSettingsRoute }) },
          { path: "/dashboard/domain", lazy: async () => ({ Component: (await settings()).DomainSettingsRoute }) },
          { path: "/dashboard/help", lazy: async () => ({ Component: (await help()).HelpRoute }) },
          { path: "/add-book", lazy: async () => ({ Component: (await books()).AddBookRoute }) },
          { path: "/edit-book/:id", lazy: async () => ({ Component: (await books()).EditBookRoute }) },
          // Any other dashboard address: the spec's 'Section Coming Soon', inside the dashboard.
          { path: "/dashboard/*", element: <SectionComingSoon /> },
        ],
      },
      { path: "*", element: <NotFound /> },
    ],
  },
]);
