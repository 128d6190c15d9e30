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
