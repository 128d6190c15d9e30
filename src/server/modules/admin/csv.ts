// CSV for spreadsheets (RFC 4180, CRLF, UTF-8 with a byte-order mark so Excel reads £ and names
// right). A text cell that a spreadsheet would take for a formula (= + - @, or a tab or return
// first) is prefixed with ' — an author's name like "=HYPERLINK(…)" stays text.
export type Cell = string | number | boolean | null | undefined | Decimal;

/** A money amount in major units with its two decimals ("-9.99"): written as a number, never guarded. */
export type Decimal = { decimal: string };

export function decimal(minor: number): Decimal {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(minor));
  return { decimal: `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}` };
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return value.decimal;
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: Cell[][]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
