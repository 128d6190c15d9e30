// DNS lookups for custom-domain checks, through node:dns's Resolver: the servers come from
// configuration (DNS_SERVERS), so tests ask a real DNS server on 127.0.0.1 instead of the
// system's. Every answer says which of four things happened, so a caller can explain it.
import { Resolver } from "node:dns/promises";

export type DnsAnswer =
  /** Records of the type asked for (after following CNAMEs, for addresses). */
  | { kind: "records"; values: string[] }
  /** The name exists but has no record of that type. */
  | { kind: "none" }
  /** The name does not exist (NXDOMAIN). */
  | { kind: "no_such_name" }
  /** No usable answer: timeout, server failure, refused. Worth trying again later. */
  | { kind: "failed"; code: string };

export type DnsLookup = {
  txt(name: string): Promise<DnsAnswer>;
  cname(name: string): Promise<DnsAnswer>;
  a(name: string): Promise<DnsAnswer>;
  aaaa(name: string): Promise<DnsAnswer>;
};

/** Lower case, no trailing dot: how names are compared. */
export const canonicalName = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

export function createDnsLookup(servers: string[], opts: { timeoutMs?: number; tries?: number } = {}): DnsLookup {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 2500, tries: opts.tries ?? 2 });
  if (servers.length) resolver.setServers(servers);
  const ask = async (query: () => Promise<string[]>): Promise<DnsAnswer> => {
    try {
      const values = await query();
      return values.length ? { kind: "records", values } : { kind: "none" };
    } catch (err) {
      const code = (err as { code?: string }).code ?? "UNKNOWN";
      if (code === "ENODATA") return { kind: "none" };
      if (code === "ENOTFOUND") return { kind: "no_such_name" };
      return { kind: "failed", code };
    }
  };
  return {
    // A TXT record may be split in several strings; they are one value.
    txt: (name) => ask(async () => (await resolver.resolveTxt(name)).map((parts) => parts.join(""))),
    cname: (name) => ask(async () => (await resolver.resolveCname(name)).map(canonicalName)),
    a: (name) => ask(() => resolver.resolve4(name)),
    aaaa: (name) => ask(() => resolver.resolve6(name)),
  };
}
