// Who a view is from (ADR 007, 032): a bot or a reader, and the referring site it came from.

const BOT =
  /bot|crawl|spider|slurp|fetch|preview|monitor|headless|lighthouse|curl|wget|python|java\/|go-http|axios|node/i;

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT.test(userAgent);
}

/** Distinct referring sites kept per site and day; the rest are counted as OTHER_SOURCE. */
export const MAX_SOURCES_PER_DAY = 50;
export const OTHER_SOURCE = "(other)";
/**
 * Where a view came from: the referring site's host (lower case, without `www.`), "" for none
 * (typed, bookmarked, an app that sends no Referer), or null when it is the site's own page (a
 * reader moving around the site is not a new arrival).
 */
export function referrerSource(referer: string | undefined, ownHost: string | undefined): string | null {
  if (!referer) return "";
  let host: string;
  try {
    const u = new URL(referer);
    if (u.protocol !== "http:" && u.protocol !== "https:") return "";
    host = u.host.toLowerCase();
  } catch {
    return "";
  }
  if (ownHost && host === ownHost.toLowerCase()) return null;
  return host.replace(/^www\./, "").replace(/:\d+$/, "");
}
