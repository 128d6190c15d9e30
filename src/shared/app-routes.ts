// The paths the SPA draws. The server answers 404 for anything else on the app host, so a
// wrong link is a real 404 to browsers and crawlers, not a 200 that says "not found".
export const SPA_ROUTES = [
  "/login",
  "/signup",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/onboarding",
  "/dashboard",
  "/dashboard/*",
  "/account",
  "/account/*",
  "/admin",
  "/admin/*",
  "/pricing/choose",
  "/add-book",
  "/edit-book/:id",
] as const;

export function isSpaRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return SPA_ROUTES.some((route) => {
    if (route.endsWith("/*")) {
      const base = route.slice(0, -2);
      return path === base || path.startsWith(`${base}/`);
    }
    if (route.includes(":")) {
      const parts = route.split("/");
      const actual = path.split("/");
      return (
        parts.length === actual.length &&
        parts.every((p, i) => (p.startsWith(":") ? actual[i] !== "" : p === actual[i]))
      );
    }
    return route === path;
  });
}

/** Where a checkout the author left without paying returns: the dashboard says what happened. */
export const CHECKOUT_CANCELLED_PATH = "/dashboard?checkout=cancelled";
