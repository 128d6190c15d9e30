// Where to go after signing up or in: carried as ?next= through sign-up, the verification
// mail and sign-in. Only paths on this site are accepted, so a link can never send someone away.
const LOCAL_PATH = /^\/(?!\/)[^\s\\]*$/;

export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 500 || !LOCAL_PATH.test(raw)) return null;
  return raw;
}

/** '/signup' + '/onboarding?tier=midi' → '/signup?next=%2Fonboarding%3Ftier%3Dmidi'. */
export function withNext(path: string, next: string | null | undefined): string {
  const safe = safeNextPath(next);
  return safe ? `${path}?next=${encodeURIComponent(safe)}` : path;
}

/** Where the verification mail's link lands; that page then continues to `next`. */
export const VERIFY_CALLBACK = "/verify-email";

/** The verification link's landing page, carrying where to continue once verified. */
export function verifyCallback(next: string | null | undefined): string {
  const safe = safeNextPath(next);
  return safe ? `${VERIFY_CALLBACK}?next=${encodeURIComponent(safe)}` : VERIFY_CALLBACK;
}

/**
 * The header the sign-in form sends with where the person was heading: the verification mail
 * Better Auth sends when an unverified account signs in has no other way to learn it.
 */
export const VERIFY_NEXT_HEADER = "x-verify-next";
