// What every request handler can reach: the process's dependencies and per-request values.
import type { Database } from "../../db/client.ts";
import type { Env } from "../env.ts";
import type { DnsLookup } from "../lib/dns.ts";
import type { HostKind } from "../lib/host.ts";
import type { Logger } from "../lib/logger.ts";
import type { Limiter } from "../lib/rate-limiter.ts";
import type { Storage } from "../lib/storage.ts";

/**
 * The process's dependencies as a request sees them (`c.var.deps`). This file declares the parts
 * the floors below the modules own; a module adds its own part in its `deps.ts`, beside the type
 * it owns, by merging into this interface (ADR 078): `auth` (modules/auth/deps.ts), `mailer`
 * (modules/mail/deps.ts), `visits` (modules/analytics/deps.ts). So this floor names no module,
 * not even a type, and a reader of `c.var.deps.mailer` still gets the whole `Mailer`.
 */
export interface AppDeps {
  env: Env;
  database: Database;
  logger: Logger;
  storage: Storage;
  /** DNS lookups for custom domains (DNS_SERVERS). */
  dns: DnsLookup;
  webDist: string;
  /** Signs readers' unsubscribe links (derived from the server's secret; ADR 065). */
  unsubscribeKey: string;
  /** Rate limits of the app's own public endpoints (the public sites' are the renderer's). */
  limits: {
    /** Contact-address verification links per address, whoever asks (ADR 014). */
    contactVerifyMail: Limiter;
    /** The wizard's public subdomain-availability check, per address. */
    availability: Limiter;
  };
}

/** The signed-in user as a request knows it (set by session.ts). */
export type SessionUser = { id: string; email: string; name: string; role: string };

export type AppVars = {
  Variables: {
    requestId: string;
    host: HostKind;
    deps: AppDeps;
    /** Set by the first `requireUser` of a request. */
    user?: SessionUser;
  };
};
