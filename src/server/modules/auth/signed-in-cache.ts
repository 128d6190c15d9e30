// Who a session cookie signs in, kept between requests (ADR 093): an API request then costs one
// database round trip less. Only what the database says it may be kept is kept, and only for as
// long as this process hears of every change:
// - a trigger on `session` and on `user` (migration 0033) notifies `signed_in_changed` with the
//   user's id on every update or delete, whichever code makes it (Better Auth's endpoints, a ban,
//   a role or name change, an account's deletion, a session revoked by staff, psql); every process
//   listening forgets that user's sessions (everyone's, after a TRUNCATE), and the process that
//   made the change before its answer (`notify_own`, migration 0034, ADR 094);
// - while the LISTEN link is down nothing is served from here, and when it is back everything
//   is forgotten (notices sent meanwhile are lost);
// - a read that started before a change and answers after it is not kept (the generation);
// - an entry lasts a minute at most, and the session's own expiry and daily refresh are checked
//   on every use, as the read does.
// The back office's gate reads the role from the database on each request whatever this holds.
import type { Database } from "../../../db/client.ts";

export const SIGNED_IN_CHANNEL = "signed_in_changed";

/** How long an entry is used at most, in ms, in case a notice is lost without the link dropping. */
const MAX_AGE_MS = 60_000;
/** Sessions kept at most (the oldest go first): about 300 bytes each. */
const MAX_ENTRIES = 10_000;

/** What is kept of a signed-in user: at least whose it is. */
type Who = { readonly id: string };
type Entry<U extends Who> = { user: Readonly<U>; expiresAt: number; keptAt: number };

export class SignedInCache<U extends Who = Who> {
  readonly #entries = new Map<string, Entry<U>>();
  /** Bumped by every forgetting: a read that began under an older one is not kept. */
  #generation = 0;
  /** Whether this process hears every change now (subscribed, link up). */
  #hearing = false;

  /** The generation to hand back to `keep` when the read that started now answers. */
  get generation(): number {
    return this.#generation;
  }

  /** The user a session token signs in, with the session's expiry, or undefined. */
  get(token: string, now: number): { user: Readonly<U>; expiresAt: number } | undefined {
    if (!this.#hearing) return undefined;
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (now - entry.keptAt > MAX_AGE_MS) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry;
  }

  /** Keeps what a read begun at `generation` found, unless something was forgotten since. */
  keep(token: string, user: U, expiresAt: number, generation: number, now: number): void {
    if (!this.#hearing || generation !== this.#generation) return;
    this.#entries.delete(token);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(token, { user: Object.freeze({ ...user }), expiresAt, keptAt: now });
  }

  /** Forgets one token (a session found expired or due for its refresh). */
  forget(token: string): void {
    this.#generation++;
    this.#entries.delete(token);
  }

  /** Forgets every session of a user. */
  forgetUser(userId: string): void {
    this.#generation++;
    for (const [token, entry] of this.#entries) if (entry.user.id === userId) this.#entries.delete(token);
  }

  /** Forgets everything. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Starts (true) or stops (false) serving from here; stopping forgets everything. */
  hearing(on: boolean): void {
    if (!on) this.clear();
    this.#hearing = on;
  }
}

/**
 * A cache that follows every change to sessions and users on `database`: empty and unused until
 * subscribed, and again whenever the LISTEN link is down. Returns the cache and how to stop.
 */
export async function followSignedIn<U extends Who>(
  database: Pick<Database, "listen">,
  onLinkLost?: () => void,
): Promise<{ cache: SignedInCache<U>; stop: () => Promise<void> }> {
  const cache = new SignedInCache<U>();
  // A user's id, or nothing: a table was emptied at once (TRUNCATE).
  const heard = (userId: string) => (userId ? cache.forgetUser(userId) : cache.clear());
  const stop = await database.listen(SIGNED_IN_CHANNEL, heard, {
    onDown: () => {
      cache.hearing(false);
      onLinkLost?.();
    },
    onReconnect: () => cache.hearing(true),
    ownWritesAtOnce: true,
  });
  cache.hearing(true);
  return {
    cache,
    stop: async () => {
      cache.hearing(false);
      await stop();
    },
  };
}
