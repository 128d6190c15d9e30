/** Dates are shown en-GB everywhere: 22/11/2026, or '22 November 2026' in long form. */
export function formatDate(value: Date | string | null | undefined, style: "short" | "long" = "short"): string {
  if (!value) return "";
  const d = typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleDateString(
    "en-GB",
    style === "long" ? { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" } : { timeZone: "UTC" },
  );
}
