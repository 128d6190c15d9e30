// Reading a custom domain's DNS (ADR 022): the records an author adds (a TXT record that proves
// the claim, an A/AAAA/CNAME that points the domain at us) and a diagnosis of what the resolver
// sees now, in words the author can act on. No database: domains.service.ts keeps the claims.
import { type DnsRecord, type DomainProblem, isPublicName } from "../../../shared/schemas/domain.ts";
import type { Env } from "../../env.ts";
import { canonicalName, type DnsAnswer, type DnsLookup } from "../../lib/dns.ts";

export type DomainEnv = Pick<Env, "appOrigin" | "sitesDomain" | "domainTarget">;

/** The TXT record's name: one label under the domain, so it never clashes with the site's own records. */
export const txtName = (domain: string) => `_bookplate.${domain}`;

// Public suffixes with two labels that people commonly register under; anything with exactly two
// labels, or three under one of these, is an apex (it cannot carry a CNAME).
const TWO_LABEL_SUFFIXES = new Set([
  "co.uk",
  "org.uk",
  "me.uk",
  "ltd.uk",
  "plc.uk",
  "ac.uk",
  "com.au",
  "net.au",
  "org.au",
  "co.nz",
  "org.nz",
  "co.za",
  "co.in",
  "co.jp",
  "com.br",
  "com.mx",
  "com.ar",
  "co.il",
  "com.sg",
  "com.tr",
]);

export function isApex(domain: string): boolean {
  const labels = domain.split(".");
  if (labels.length === 2) return true;
  return labels.length === 3 && TWO_LABEL_SUFFIXES.has(labels.slice(1).join("."));
}

export function dnsRecords(env: DomainEnv, domain: string, token: string): DnsRecord[] {
  const txt: DnsRecord = { type: "TXT", name: txtName(domain), value: token, purpose: "verification" };
  const target = env.domainTarget;
  if (!isApex(domain)) return [txt, { type: "CNAME", name: domain, value: target.cname, purpose: "traffic" }];
  const addresses: DnsRecord[] = [
    ...target.a.map((value) => ({ type: "A" as const, name: domain, value, purpose: "traffic" as const })),
    ...target.aaaa.map((value) => ({ type: "AAAA" as const, name: domain, value, purpose: "traffic" as const })),
  ];
  // No fixed addresses configured: an apex points with the provider's ALIAS/ANAME (CNAME-like) record.
  return [
    txt,
    ...(addresses.length
      ? addresses
      : [{ type: "ALIAS" as const, name: domain, value: target.cname, purpose: "traffic" as const }]),
  ];
}

type Diagnosis = { ok: true } | { ok: false; problem: DomainProblem; message: string };

const fail = (problem: DomainProblem, message: string): Diagnosis => ({ ok: false, problem, message });
const dnsFailed = (domain: string) =>
  fail(
    "dns_failed",
    `The DNS servers for ${domain} did not answer. This is usually temporary: please try again in a few minutes.`,
  );
const noSuchDomain = (domain: string) =>
  fail(
    "no_such_domain",
    `We can't find ${domain} in DNS. Check the spelling, and that the domain is registered and active.`,
  );

/** The addresses that reach us: the configured ones and whatever the CNAME target resolves to. */
async function ourAddresses(dns: DnsLookup, env: DomainEnv): Promise<Set<string>> {
  const [a, aaaa] = await Promise.all([dns.a(env.domainTarget.cname), dns.aaaa(env.domainTarget.cname)]);
  const found = [a, aaaa].flatMap((x) => (x.kind === "records" ? x.values : []));
  return new Set([...env.domainTarget.a, ...env.domainTarget.aaaa, ...found].map((v) => v.toLowerCase()));
}

/** What is right and wrong with a domain's records, checked the way a resolver sees them. */
export async function diagnose(dns: DnsLookup, env: DomainEnv, domain: string, token: string): Promise<Diagnosis> {
  // A name that cannot be public (claimed before such names were refused) is never looked up: our
  // resolver's answer about it would describe our network, not the internet (ADR 049).
  if (!isPublicName(domain)) return noSuchDomain(domain);
  const txt = await dns.txt(txtName(domain));
  if (txt.kind === "failed") return dnsFailed(domain);
  if (txt.kind !== "records") {
    // Is it the TXT record that is missing, or the whole domain?
    const [a, cname] = await Promise.all([dns.a(domain), dns.cname(domain)]);
    if (a.kind === "failed" && cname.kind === "failed") return dnsFailed(domain);
    if (a.kind === "no_such_name" && cname.kind !== "records") {
      const soa = await dns.txt(domain);
      if (soa.kind === "no_such_name") return noSuchDomain(domain);
    }
    return fail(
      "no_txt",
      `We can't see the TXT record at ${txtName(domain)} yet. Add it at your domain provider (the first record below); new records can take up to an hour to appear.`,
    );
  }
  if (!txt.values.some((v) => v.trim() === token)) {
    const found = txt.values[0] ?? "";
    return fail(
      "txt_mismatch",
      `The TXT record at ${txtName(domain)} has a different value ("${found.slice(0, 80)}"). Change it to the value shown below.`,
    );
  }
  return diagnosePointer(dns, env, domain);
}

/** Loopback, private, link-local, carrier-grade NAT and unique-local addresses (IPv4 and IPv6). */
export function isPrivateAddress(ip: string): boolean {
  const v = ip.toLowerCase();
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(v.replace(/^::ffff:/, ""));
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  return v === "::" || v === "::1" || /^f[cd]/.test(v) || /^fe[89ab]/.test(v);
}

async function diagnosePointer(dns: DnsLookup, env: DomainEnv, domain: string): Promise<Diagnosis> {
  const target = env.domainTarget.cname;
  const apex = isApex(domain);
  const how = apex ? "the address record(s) shown below" : `the CNAME record below (to ${target})`;
  if (!apex) {
    const cname = await dns.cname(domain);
    if (cname.kind === "failed") return dnsFailed(domain);
    if (cname.kind === "records") {
      const now = cname.values[0] ?? "";
      if (canonicalName(now) === target) return { ok: true };
      return fail(
        "points_elsewhere",
        `${domain} points to ${now} at the moment. Change it to ${target}, as shown below.`,
      );
    }
  }
  const [a, aaaa] = await Promise.all([dns.a(domain), dns.aaaa(domain)]);
  const answers: DnsAnswer[] = [a, aaaa];
  if (answers.every((x) => x.kind === "failed")) return dnsFailed(domain);
  if (a.kind === "no_such_name") return noSuchDomain(domain);
  const addresses = answers.flatMap((x) => (x.kind === "records" ? x.values : []));
  if (addresses.length === 0) return fail("no_pointer", `${domain} does not point to us yet. Add ${how}.`);
  const ours = await ourAddresses(dns, env);
  const foreign = addresses.filter((v) => !ours.has(v.toLowerCase()));
  if (foreign.length === 0) return { ok: true };
  // Private addresses are named as such, not told: they say nothing to the author but something
  // about the network our resolver sits in.
  const shown = [...new Set(foreign.map((v) => (isPrivateAddress(v) ? "a private network address" : v)))];
  return fail(
    "points_elsewhere",
    `${domain} points to ${shown.join(", ")} at the moment, which is not us. Replace it with ${how}.`,
  );
}
