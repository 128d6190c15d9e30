// A site's public address: its verified custom domain, else its subdomain of the sites domain, on
// the app's scheme. Not the `/author/{sub}` preview, which is `noindex` and for its author only.
export type SiteAddressParts = {
  subdomain: string | null;
  customDomain: string | null;
  /** Whether `customDomain` is verified for this site's owner (an unverified one serves nothing). */
  customDomainVerified: boolean;
};

export function siteLiveUrl(site: SiteAddressParts, env: { appOrigin: string; sitesDomain: string }): string | null {
  const scheme = new URL(env.appOrigin).protocol;
  if (site.customDomain && site.customDomainVerified) return `${scheme}//${site.customDomain}/`;
  if (site.subdomain) return `${scheme}//${site.subdomain}.${env.sitesDomain}/`;
  return null;
}
