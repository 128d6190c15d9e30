// Better Auth's browser client, mounted by the server at /api/auth on this same origin.
import { twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({
  baseURL: typeof window === "undefined" ? "http://localhost" : window.location.origin,
  basePath: "/api/auth",
  // The sign-in form handles the second step itself, so no redirect to a separate page.
  plugins: [twoFactorClient({ onTwoFactorRedirect: () => {} })],
});

export const { useSession } = authClient;

type AuthErrorLike =
  | {
      message?: string;
      code?: string;
      status?: number;
      error?: { message?: string; code?: string };
    }
  | null
  | undefined;

/**
 * Better Auth's errors carry `message`; our own validation layer in front of it answers
 * `{ error: { message } }`. Either way, the person sees the server's words.
 */
export function authErrorMessage(error: AuthErrorLike, fallback: string): string {
  return error?.message || error?.error?.message || fallback;
}

export function authErrorCode(error: AuthErrorLike): string | undefined {
  return error?.code ?? error?.error?.code;
}

/** Where the verification mail's link lands; that page then continues to onboarding. */
export const VERIFY_CALLBACK = "/verify-email";

/** The verification link's landing page, carrying where to continue once verified. */
export function verifyCallback(next: string | null | undefined): string {
  return next ? `${VERIFY_CALLBACK}?next=${encodeURIComponent(next)}` : VERIFY_CALLBACK;
}
