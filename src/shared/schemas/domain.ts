// An author's custom domain: the input, its checks (one clear message per mistake), and what the
// Domain section shows. The server adds the one check that needs configuration: not our own
// SITES_DOMAIN.
import { z } from "zod";
import { namedObject } from "./fragments.ts";

export const DOMAIN_MESSAGES = {
  started: "Domain verification started. Please add the DNS records below.",
  startFailed: "Failed to start domain verification",
  updated: "Custom domain updated successfully!",
  updateFailed: "Failed to update custom domain",
  removed: "Custom domain removed. Your site is back on its free address.",
  copied: "Copied to clipboard!",
  required: "Please enter your domain name",
  scheme: "Enter the domain only, without http:// or https://",
  path: "Enter the domain only, without a path (nothing after a /)",
  port: "Enter the domain without a port number",
  ip: "Enter a domain name, not an IP address",
  wildcard: "Wildcard domains are not supported: enter one domain, like www.janeauthor.com",
  invalid: "Please enter a valid domain name, like janeauthor.com",
  ours: "That is one of our own addresses: your free subdomain already works without a custom domain.",
  notPublic:
    "That name is not a public domain, so readers could never reach it. Enter a domain you registered with a domain provider, like janeauthor.com",
  taken: "This domain is already connected to another website.",
  noWebsite: "Create your website first.",
} as const;

const LABELS =
  /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+(xn--[a-z0-9-]{1,59}|[a-z][a-z0-9-]{0,61}[a-z0-9])$/;

/**
 * The domain as we store it (lower case, punycode, no trailing dot), or the message that says
 * what is wrong with what was typed.
 */
export function checkDomain(raw: string): { domain: string } | { message: string } {
  const v = raw.trim();
  if (!v) return { message: DOMAIN_MESSAGES.required };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return { message: DOMAIN_MESSAGES.scheme };
  if (/[/?#]/.test(v)) return { message: DOMAIN_MESSAGES.path };
  if (v.includes("*")) return { message: DOMAIN_MESSAGES.wildcard };
  if (/^\[.*\]$/.test(v) || /^[0-9.]+$/.test(v) || (v.includes(":") && /^[0-9a-f:.]+$/i.test(v))) {
    return { message: DOMAIN_MESSAGES.ip };
  }
  if (/:\d*$/.test(v)) return { message: DOMAIN_MESSAGES.port };
  if (/[\s@:\\]/.test(v)) return { message: DOMAIN_MESSAGES.invalid };
  let ascii: string;
  try {
    // The WHATWG URL parser turns an international name into its punycode (xn--) form.
    ascii = new URL(`http://${v}`).hostname.replace(/\.$/, "");
  } catch {
    return { message: DOMAIN_MESSAGES.invalid };
  }
  if (!LABELS.test(ascii)) return { message: DOMAIN_MESSAGES.invalid };
  if (!isPublicName(ascii)) return { message: DOMAIN_MESSAGES.notPublic };
  return { domain: ascii };
}

// Names that never reach the public internet (RFC 2606, 6761, 6762, 7686, 8375, 9476, and the
// private-network names in common use): a custom domain under one of these could only ever be
// answered by our own resolver, which would tell an author about our network (ADR 049).
const RESERVED_SUFFIXES = [
  "localhost",
  "localdomain",
  "local",
  "internal",
  "intranet",
  "private",
  "corp",
  "home",
  "lan",
  "test",
  "example",
  "invalid",
  "onion",
  "alt",
  "arpa",
  "example.com",
  "example.net",
  "example.org",
];

/**
 * Whether a lower-case ASCII name can be a public domain: two labels at least, and not under a
 * reserved or private-use name. (No public suffix list ships with the app; see ADR 049.)
 */
export function isPublicName(name: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  if (!n.includes(".")) return false;
  if (/^[0-9.]+$/.test(n) || n.includes(":")) return false;
  return !RESERVED_SUFFIXES.some((r) => n === r || n.endsWith(`.${r}`));
}

export const domainInputSchema = z.strictObject({
  domain: z
    .string({ error: DOMAIN_MESSAGES.required })
    .max(300, { error: "Domain is too long" })
    .transform((raw, ctx) => {
      const r = checkDomain(raw);
      if ("message" in r) {
        ctx.addIssue({ code: "custom", message: r.message });
        return z.NEVER;
      }
      return r.domain;
    }),
});
export type DomainInput = z.input<typeof domainInputSchema>;

/** One DNS record the author adds at their domain provider. */
export const dnsRecordSchema = namedObject("DnsRecord", {
  type: z.enum(["TXT", "CNAME", "A", "AAAA", "ALIAS"]),
  /** The full name the record is for. */
  name: z.string(),
  value: z.string(),
  purpose: z.enum(["verification", "traffic"]),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const DOMAIN_PROBLEMS = [
  "no_txt",
  "txt_mismatch",
  "no_pointer",
  "points_elsewhere",
  "no_such_domain",
  "dns_failed",
] as const;
export type DomainProblem = (typeof DOMAIN_PROBLEMS)[number];

export const domainCheckSchema = namedObject("DomainCheck", {
  ok: z.boolean(),
  problem: z.enum(DOMAIN_PROBLEMS).optional(),
  /** For the author: what is wrong and what to do. */
  message: z.string(),
  checkedAt: z.string(),
});
export type DomainCheck = z.infer<typeof domainCheckSchema>;

export const domainStateSchema = namedObject("DomainState", {
  /** The custom domain being connected or connected; null when there is none. */
  domain: z.string().nullable(),
  status: z.enum(["none", "pending", "verified"]),
  records: z.array(dnsRecordSchema),
  verifiedAt: z.string().nullable(),
  /** The last check's outcome (a verified domain whose records went away says so here). */
  lastCheck: domainCheckSchema.nullable(),
  /** The address readers reach the site at right now. */
  liveUrl: z.string().nullable(),
  /** The free address (null for a site that has none). */
  subdomainUrl: z.string().nullable(),
});
export type DomainState = z.infer<typeof domainStateSchema>;
