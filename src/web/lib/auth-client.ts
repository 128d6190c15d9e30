// Better Auth's browser client, mounted by the server at /api/auth on this same origin.
import { twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { API_ERROR_CODES, type ApiErrorCode } from "../../shared/api-errors.ts";

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
 * Every error under /api/auth is `{ error: { code, message } }` (the server rewrites Better Auth's
 * own shape, ADR 018); Better Auth's client hands the body over spread into its error object.
 */
export function authErrorMessage(error: AuthErrorLike, fallback: string): string {
  return error?.error?.message || error?.message || fallback;
}

/** The error's code from src/shared/api-errors.ts: screens switch on it, never on the words. */
export function authErrorCode(error: AuthErrorLike): ApiErrorCode | undefined {
  const code = error?.error?.code ?? error?.code;
  return (API_ERROR_CODES as readonly string[]).includes(code ?? "") ? (code as ApiErrorCode) : undefined;
}

export { VERIFY_CALLBACK, verifyCallback } from "../../shared/next-path.ts";
