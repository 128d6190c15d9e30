// One formatter per style for the process: toLocaleDateString builds a new one on every call, and
// the public sites format a date for every book and post they render.
const FORMATS = {
  short: new Intl.DateTimeFormat("en-GB", { timeZone: "UTC" }),
  long: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }),
};

// Formatting is slow next to the rest of a render, and few distinct days are ever shown.
const byDay = new Map<string, string>();
/** The same by the text a date was given as (the same text is always the same day). */
const byText = new Map<string, string>();
const MAX_DAYS = 2000;

/** Dates are shown en-GB everywhere: 22/11/2026, or '22 November 2026' in long form. */
export function formatDate(value: Date | string | null | undefined, style: "short" | "long" = "short"): string {
  if (!value) return "";
  // A stored day (YYYY-MM-DD, as release and review dates are) is its own key: no Date to build.
  const asGiven = typeof value === "string" && value.length <= 40 ? `${style}|${value}` : null;
  const given = asGiven === null ? undefined : byText.get(asGiven);
  if (given !== undefined) return given;
  const d = typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  if (Number.isNaN(d.getTime())) return "";
  const key = `${style}|${d.toISOString().slice(0, 10)}`;
  let text = byDay.get(key);
  if (text === undefined) {
    if (byDay.size >= MAX_DAYS) byDay.clear();
    text = FORMATS[style].format(d);
    byDay.set(key, text);
  }
  if (asGiven !== null) {
    if (byText.size >= MAX_DAYS) byText.clear();
    byText.set(asGiven, text);
  }
  return text;
}
