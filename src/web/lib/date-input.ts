// Dates typed as text in the author's own order (22/11/2024 for a British author, 11/22/2024 for
// an American one), read from the browser's preferred language: a native date picker follows the
// browser's interface language instead, and showed mm/dd/yyyy to British authors. The API keeps
// ISO dates (YYYY-MM-DD); these turn one into the other.

type Part = "day" | "month" | "year";

/** The author's language, as the browser states it (the first preferred one). */
export function authorLocale(): string {
  if (typeof navigator === "undefined") return "en-GB";
  return navigator.languages?.[0] ?? navigator.language ?? "en-GB";
}

/** The order of day, month and year in `locale`, and the separator it writes between them. */
export function dateOrder(locale: string): { order: Part[]; separator: string } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric" }).formatToParts(
      new Date(Date.UTC(2001, 10, 22)),
    );
  } catch {
    return { order: ["day", "month", "year"], separator: "/" };
  }
  const order = parts.map((p) => p.type).filter((t): t is Part => t === "day" || t === "month" || t === "year");
  const separator = parts.find((p) => p.type === "literal")?.value.trim() || "/";
  return order.length === 3 ? { order, separator } : { order: ["day", "month", "year"], separator: "/" };
}

/** What the field shows as a hint: "dd/mm/yyyy", "mm/dd/yyyy", "yyyy-mm-dd"… */
export function datePattern(locale: string): string {
  const { order, separator } = dateOrder(locale);
  const name: Record<Part, string> = { day: "dd", month: "mm", year: "yyyy" };
  return order.map((p) => name[p]).join(separator);
}

/** An ISO date as the author writes dates; "" for none; anything else as it was. */
export function formatDateInput(iso: string | null | undefined, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? "");
  if (!m) return iso ?? "";
  const value: Record<Part, string> = { year: m[1] ?? "", month: m[2] ?? "", day: m[3] ?? "" };
  const { order, separator } = dateOrder(locale);
  return order.map((p) => value[p]).join(separator);
}

/**
 * The ISO date of what the author typed, in their order (any of / . - or spaces between the
 * numbers; an ISO date is taken as one too); "" for an empty field; null when it is not a date.
 */
export function parseDateInput(text: string, locale: string): string | null {
  const t = text.trim();
  if (t === "") return "";
  let day: number;
  let month: number;
  let year: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    const nums = t.split(/[\s./-]+/);
    if (nums.length !== 3 || nums.some((n) => !/^\d{1,4}$/.test(n))) return null;
    const { order } = dateOrder(locale);
    const at = (p: Part) => Number(nums[order.indexOf(p)]);
    [day, month, year] = [at("day"), at("month"), at("year")];
    if ((nums[order.indexOf("year")] ?? "").length !== 4) return null;
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
