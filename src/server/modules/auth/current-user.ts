// Who signs an API request in: the answer Better Auth's getSession gives, found the short way
// when that answer is plain (ADR 072). getSession verifies the cookie's signature through
// WebCrypto (an async job on Node's thread pool) and reads the session and then its user in two
// round trips, through its endpoint machinery, on every request. Here the signature is checked
// with a synchronous HMAC and the session with its user is one read. What the read finds is kept
// between requests only in a `SignedInCache` (ADR 093), which every change to a session or a user
// empties of that user's sessions, whatever its path: a sign-out, a ban (it ends every session), a
// changed role or name count on the next request in this process, and in every other process as
// soon as PostgreSQL's notice reaches it.
// Whenever getSession would do more than read (an expired session is deleted, one due for its
// daily refresh is extended and the account's last activity stamped) or the cookie is anything
// but one well-signed session cookie, getSession itself answers.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../../../db/client.ts";
import { selectSignedIn } from "./signed-in.queries.ts";
import type { SignedInCache } from "./signed-in-cache.ts";

export type CurrentUser = { id: string; email: string; name: string; role: string };

/** What the reader needs of the Better Auth instance. */
export type SessionSource = {
  api: {
    getSession(input: { headers: Headers }): Promise<{
      user: { id: string; email: string; name: string; role?: string | null };
    } | null>;
  };
  $context: Promise<{
    secret: string;
    authCookies: { sessionToken: { name: string }; dontRememberToken: { name: string } };
  }>;
};

/** Seconds, as Better Auth's `session` option takes them. */
export type SessionTimes = { expiresIn: number; updateAge: number };

/** The values of the cookies called `name` in a Cookie header, decoded (null: undecodable). */
function cookieValues(header: string, name: string): (string | null)[] {
  const values: (string | null)[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length > 1) value = value.slice(1, -1);
    try {
      values.push(decodeURIComponent(value));
    } catch {
      values.push(null);
    }
  }
  return values;
}

/** The token of a cookie value `token.signature` signed with `secret`, or null. */
export function verifiedToken(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const token = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64"));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

export function currentUserReader(
  auth: SessionSource,
  db: Db,
  times: SessionTimes,
  cache?: SignedInCache<CurrentUser>,
) {
  let context: Promise<{ secret: string; token: string; dontRemember: string }> | undefined;
  const settings = () =>
    (context ??= auth.$context.then((c) => ({
      secret: c.secret,
      token: c.authCookies.sessionToken.name,
      dontRemember: c.authCookies.dontRememberToken.name,
    })));

  const byGetSession = async (headers: Headers): Promise<CurrentUser | null> => {
    const found = await auth.api.getSession({ headers });
    if (!found) return null;
    const u = found.user;
    return { id: u.id, email: u.email, name: u.name, role: u.role ?? "user" };
  };

  /** Expired, or due for its daily refresh: getSession deletes or extends it. */
  const due = (expires: number, now: number) =>
    expires < now || expires - times.expiresIn * 1000 + times.updateAge * 1000 <= now;

  /** The signed-in user of a request with these headers, or null when it is signed out. */
  return async function currentUser(headers: Headers): Promise<CurrentUser | null> {
    const header = headers.get("cookie");
    if (!header) return null;
    const names = await settings();
    // No session cookie at all: getSession answers null without reading anything.
    if (!header.includes(names.token)) return null;
    const values = cookieValues(header, names.token);
    const signed = values.length === 1 ? values[0] : null;
    if (!signed || header.includes(names.dontRemember)) return byGetSession(headers);
    const token = verifiedToken(signed, names.secret);
    if (!token) return byGetSession(headers);
    const kept = cache?.get(token, Date.now());
    if (kept) {
      if (!due(kept.expiresAt, Date.now())) return kept.user;
      cache?.forget(token);
      return byGetSession(headers);
    }
    const generation = cache?.generation ?? 0;
    const row = await selectSignedIn(db, token);
    if (!row) return null;
    const expires = row.expiresAt.getTime();
    const now = Date.now();
    if (due(expires, now)) return byGetSession(headers);
    const user = { id: row.id, email: row.email, name: row.name, role: row.role ?? "user" };
    cache?.keep(token, user, expires, generation, now);
    return user;
  };
}
