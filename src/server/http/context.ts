// What every request handler can reach: the process's dependencies and per-request values.
import type { Database } from "../../db/client.ts";
import type { Env } from "../env.ts";
import type { DnsLookup } from "../lib/dns.ts";
import type { Logger } from "../lib/logger.ts";
import type { Storage } from "../lib/storage.ts";
import type { Auth } from "../modules/auth/auth.ts";
import type { Mailer } from "../modules/mail/mail.service.ts";
import type { SiteRuntime } from "../modules/sites/site-runtime.ts";
import type { HostKind } from "./host.ts";
import type { SessionUser } from "./session.ts";

export type AppDeps = {
  env: Env;
  database: Database;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
  storage: Storage;
  /** DNS lookups for custom domains (DNS_SERVERS). */
  dns: DnsLookup;
  webDist: string;
  /** The public sites' page cache, visit counter and form limits. */
  sites: SiteRuntime;
};

export type AppVars = {
  Variables: {
    requestId: string;
    host: HostKind;
    deps: AppDeps;
    /** Set by the first `requireUser` of a request. */
    user?: SessionUser;
  };
};
