// Configuration, read once from the environment (and an optional .env), validated at start-up.
import { existsSync, readFileSync } from "node:fs";
import { isIPv4, isIPv6 } from "node:net";
import { resolve } from "node:path";
import { z } from "zod";

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalString,
  APP_ORIGIN: optionalString,
  SITES_DOMAIN: optionalString,
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default("Bookplate <no-reply@bookplate.local>"),
  /** DKIM signing (ADR 065): the signing domain, the DNS selector and the PEM key (or a file holding it). */
  DKIM_DOMAIN: optionalString,
  DKIM_SELECTOR: optionalString,
  DKIM_PRIVATE_KEY: optionalString,
  DKIM_PRIVATE_KEY_FILE: optionalString,
  /** How long a claimed outbox row is its process's; a row of a process that died goes again after it (ADR 048). */
  MAIL_LEASE_SECONDS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(2).max(3600).default(300),
  ),
  /** Newsletter copies each process sends a second at most (ADR 066). */
  NEWSLETTER_SEND_RATE: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().positive().max(1000).default(10),
  ),
  /** Newsletter copies one account may queue in 24 hours (ADR 066). */
  NEWSLETTER_DAILY_CAP: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(0).max(10_000_000).default(5000),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_HOST: optionalString,
  STRIPE_API_PORT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  STRIPE_API_PROTOCOL: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["http", "https"]).optional()),
  AUTH_SECRET: optionalString,
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0", ""])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** The header a proxy/CDN sets to the reader's country (e.g. CF-IPCountry); unset: not trusted (ADR 036). */
  COUNTRY_HEADER: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/, { error: "must be a header name, e.g. CF-IPCountry" })
      .transform((v) => v.toLowerCase())
      .optional(),
  ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  METRICS_TOKEN: optionalString,
  SEED_DEMO: z
    .enum(["true", "false", "1", "0", ""])
    .default("true")
    .transform((v) => v !== "false" && v !== "0"),
  /** Where the embedded database runs: a thread of its own (ADR 088) or the server's. */
  PGLITE_THREAD: z.enum(["worker", "main"]).default("worker"),
  PAGE_CACHE: z
    .enum(["true", "false", "1", "0", ""])
    .default("true")
    .transform((v) => v !== "false" && v !== "0"),
  /** Keep the site contexts of sites read lately (ADR 040); false for benchmarks of a cold miss. */
  SITE_CONTEXT_CACHE: z
    .enum(["true", "false", "1", "0", ""])
    .default("true")
    .transform((v) => v !== "false" && v !== "0"),
  /** How long a starting process may spend rendering pages to warm itself before it listens (ADR 075); 0: none. */
  WARM_UP_MS: z.coerce.number().int().min(0).max(60_000).default(400),
  /** The page cache's budget in MB: what a process may hold of rendered pages (ADR 033). */
  PAGE_CACHE_MB: z.coerce.number().int().min(1).max(65_536).default(64),
  DNS_SERVERS: optionalString,
  /** How many backups DATA_DIR/backups keeps; older ones are deleted after each new one (ADR 046). */
  BACKUP_KEEP: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(1000).default(10)),
  S3_ENDPOINT: optionalString,
  S3_BUCKET: optionalString,
  S3_PUBLIC_URL: optionalString,
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  DOMAIN_CNAME_TARGET: optionalString,
  DOMAIN_A_RECORDS: optionalString,
  DOMAIN_AAAA_RECORDS: optionalString,
  HTTP_HEADERS_TIMEOUT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().positive().max(3600).default(20),
  ),
  HTTP_REQUEST_TIMEOUT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().positive().max(3600).default(120),
  ),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PGLITE_THREAD: the embedded database on a thread of its own, or on the server's (ADR 088). */
  pgliteThread: "worker" | "main";
  appOrigin: string;
  /** Host (with port when not 80/443) under which `{sub}.` tenant sites live. */
  sitesDomain: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Sign outgoing mail with DKIM (DKIM_DOMAIN, DKIM_SELECTOR and a key); null: unsigned. */
  dkim: { domainName: string; keySelector: string; privateKey: string } | null;
  /** MAIL_LEASE_SECONDS, in ms. */
  mailLeaseMs: number;
  /** NEWSLETTER_SEND_RATE (per process, per second) and NEWSLETTER_DAILY_CAP (per account, 24 hours). */
  newsletter: { sendRate: number; dailyCap: number };
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Where the Stripe SDK sends requests; set only to point it at a fake Stripe in tests. */
  stripeApi: { host?: string; port?: number; protocol?: "http" | "https" };
  authSecret: string | undefined;
  trustProxy: boolean;
  /** The trusted country header's name, lower case; null: the reader's languages decide (ADR 036). */
  countryHeader: string | null;
  logLevel: string;
  seedDemo: boolean;
  metricsToken: string | undefined;
  /** Keep rendered public pages in memory (PAGE_CACHE=false renders every request; benchmarks). */
  pageCache: boolean;
  /** The page cache's budget in bytes (PAGE_CACHE_MB). */
  pageCacheBytes: number;
  /** Keep the site contexts of sites read lately (SITE_CONTEXT_CACHE=false reads the site on every miss; benchmarks). */
  siteContextCache: boolean;
  /** Milliseconds a starting process may spend warming its renderer before it listens (WARM_UP_MS; 0: none). */
  warmUpMs: number;
  /** Seconds a client may take to send a request's headers, and the whole request. */
  http: { headersTimeoutS: number; requestTimeoutS: number };
  /** DNS servers (`host:port`) for custom-domain checks; empty = the system's. */
  dnsServers: string[];
  /** Backups kept in DATA_DIR/backups (BACKUP_KEEP). */
  backupKeep: number;
  /** Uploads in an S3-compatible store; null keeps them in DATA_DIR/uploads (ADR 030). */
  s3: { endpoint?: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | null;
  /** Where readers fetch uploads from (S3_PUBLIC_URL, e.g. a CDN in front of the bucket); null: /uploads on the site's host. */
  uploadsPublicUrl: string | null;
  /** Where authors point their custom domains: a CNAME target, and addresses for apex domains. */
  domainTarget: { cname: string; a: string[]; aaaa: string[] };
};

const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

function readDotEnv(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (!m?.[1]) continue;
    out[m[1]] = (m[2] ?? "").replace(/^(['"])(.*)\1$/, "$2");
  }
  return out;
}

/** DKIM: all of domain, selector and a key, or none (a half-configured signer is a start-up error). */
function dkimOf(e: z.infer<typeof envSchema>): Env["dkim"] {
  const given = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY ?? e.DKIM_PRIVATE_KEY_FILE];
  if (given.every((v) => v === undefined)) return null;
  if (given.some((v) => v === undefined)) {
    throw new Error(
      "Invalid configuration:\n  DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (or DKIM_PRIVATE_KEY_FILE): set all or none",
    );
  }
  let privateKey = (e.DKIM_PRIVATE_KEY ?? "").replace(/\\n/g, "\n");
  if (!privateKey && e.DKIM_PRIVATE_KEY_FILE) {
    try {
      privateKey = readFileSync(resolve(e.DKIM_PRIVATE_KEY_FILE), "utf8");
    } catch {
      throw new Error(`Invalid configuration:\n  DKIM_PRIVATE_KEY_FILE: cannot read ${e.DKIM_PRIVATE_KEY_FILE}`);
    }
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey)) {
    throw new Error("Invalid configuration:\n  DKIM_PRIVATE_KEY: not a PEM private key (-----BEGIN PRIVATE KEY-----)");
  }
  return {
    domainName: (e.DKIM_DOMAIN ?? "").toLowerCase().replace(/\.$/, ""),
    keySelector: e.DKIM_SELECTOR ?? "",
    privateKey,
  };
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const merged = { ...readDotEnv(resolve(".env")), ...source };
  const parsed = envSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const appOrigin = (e.APP_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  try {
    new URL(appOrigin);
  } catch {
    throw new Error(`Invalid configuration:\n  APP_ORIGIN: not a URL (${appOrigin})`);
  }
  const sitesDomain = (e.SITES_DOMAIN ?? `localhost:${e.PORT}`).toLowerCase();
  const dnsServers = list(e.DNS_SERVERS);
  for (const server of dnsServers) {
    if (!/^(\[[0-9a-f:]+\]|[0-9.]+)(:\d{1,5})?$/i.test(server)) {
      throw new Error(`Invalid configuration:\n  DNS_SERVERS: "${server}" is not an IP address with an optional :port`);
    }
  }
  // Object storage: the bucket turns it on; then the keys are required (an endpoint only for a
  // store other than AWS itself).
  let s3: Env["s3"] = null;
  if (e.S3_BUCKET) {
    const missing = (["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((k) => !e[k]);
    if (missing.length) {
      throw new Error(`Invalid configuration:\n  ${missing.join(", ")}: required when S3_BUCKET is set`);
    }
    s3 = {
      ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
      bucket: e.S3_BUCKET,
      region: e.S3_REGION ?? "us-east-1",
      accessKeyId: e.S3_ACCESS_KEY_ID ?? "",
      secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? "",
    };
  }
  let uploadsPublicUrl: string | null = null;
  if (e.S3_PUBLIC_URL) {
    const u = URL.canParse(e.S3_PUBLIC_URL) ? new URL(e.S3_PUBLIC_URL) : null;
    if (!u || (u.protocol !== "https:" && u.protocol !== "http:") || u.search || u.hash) {
      throw new Error(
        "Invalid configuration:\n  S3_PUBLIC_URL: an http(s) address without a query, e.g. https://cdn.example.com",
      );
    }
    uploadsPublicUrl = `${u.origin}${u.pathname}`.replace(/\/+$/, "");
  }
  const dkim = dkimOf(e);
  const a = list(e.DOMAIN_A_RECORDS);
  const aaaa = list(e.DOMAIN_AAAA_RECORDS);
  for (const [name, values, ok] of [
    ["DOMAIN_A_RECORDS", a, isIPv4],
    ["DOMAIN_AAAA_RECORDS", aaaa, isIPv6],
  ] as const) {
    const bad = values.find((v) => !ok(v));
    if (bad) throw new Error(`Invalid configuration:\n  ${name}: "${bad}" is not an address of that kind`);
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    pgliteThread: e.PGLITE_THREAD,
    appOrigin,
    sitesDomain,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    dkim,
    mailLeaseMs: e.MAIL_LEASE_SECONDS * 1000,
    newsletter: { sendRate: e.NEWSLETTER_SEND_RATE, dailyCap: e.NEWSLETTER_DAILY_CAP },
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripeApi: {
      ...(e.STRIPE_API_HOST ? { host: e.STRIPE_API_HOST } : {}),
      ...(e.STRIPE_API_PORT ? { port: e.STRIPE_API_PORT } : {}),
      ...(e.STRIPE_API_PROTOCOL ? { protocol: e.STRIPE_API_PROTOCOL } : {}),
    },
    authSecret: e.AUTH_SECRET,
    trustProxy: e.TRUST_PROXY,
    countryHeader: e.COUNTRY_HEADER ?? null,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    metricsToken: e.METRICS_TOKEN,
    pageCache: e.PAGE_CACHE,
    pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    siteContextCache: e.SITE_CONTEXT_CACHE,
    warmUpMs: e.WARM_UP_MS,
    http: {
      // Node requires the headers to fit within the whole request's time.
      headersTimeoutS: Math.min(e.HTTP_HEADERS_TIMEOUT, e.HTTP_REQUEST_TIMEOUT),
      requestTimeoutS: e.HTTP_REQUEST_TIMEOUT,
    },
    dnsServers,
    backupKeep: e.BACKUP_KEEP,
    s3,
    uploadsPublicUrl,
    domainTarget: {
      cname: (e.DOMAIN_CNAME_TARGET ?? sitesDomain.replace(/:\d+$/, "")).toLowerCase().replace(/\.$/, ""),
      a,
      aaaa,
    },
  };
}
