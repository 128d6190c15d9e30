// Which product a request is for is decided by its Host header, here and nowhere else (the app and
// the fast path both ask it); who sent it, by clientAddress (client-address.ts). Both live in
// server/lib, so that the public-site renderer can use them without the http layer.

export type HostKind =
  | { kind: "app" }
  | { kind: "subdomain"; subdomain: string }
  | { kind: "custom"; domain: string }
  | { kind: "unknown" };

export type HostConfig = { appHost: string; sitesDomain: string };

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export function classifyHost(rawHost: string | undefined, cfg: HostConfig): HostKind {
  const host = (rawHost ?? "").trim().toLowerCase().replace(/\.$/, "");
  if (!host) return { kind: "unknown" };
  if (host === cfg.appHost) return { kind: "app" };
  const suffix = `.${cfg.sitesDomain}`;
  if (host.endsWith(suffix)) {
    const label = host.slice(0, -suffix.length);
    if (LABEL.test(label)) return { kind: "subdomain", subdomain: label };
    return { kind: "unknown" };
  }
  const name = host.replace(/:\d+$/, "");
  if (name.split(".").every((l) => LABEL.test(l)) && name.includes(".")) return { kind: "custom", domain: name };
  return { kind: "unknown" };
}
