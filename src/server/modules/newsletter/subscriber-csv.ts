// Reading another provider's subscriber export (Mailchimp, ConvertKit, Substack, a spreadsheet):
// RFC 4180 CSV with a header line, read strictly enough that a damaged file is refused whole
// rather than half-understood. The email column is found by its header's name (ADR 067).
import { DomainError } from "../../lib/domain-error.ts";

export type CsvRow = { line: number; cells: string[] };

/** Header names (lower case, letters and digits only) that hold the address, best first. */
const EMAIL_HEADERS = [
  "email",
  "emailaddress",
  "email1",
  "mail",
  "subscriberemail",
  "subscriberemailaddress",
  "useremail",
  "contactemail",
  "primaryemail",
];

const malformed = (line: number, why: string) =>
  new DomainError(
    "validation_failed",
    `This file is not a valid CSV (line ${line}: ${why}). Export your list again as CSV. Nothing was imported.`,
    { field: "file" },
  );

/** UTF-8 (with or without its byte-order mark), else Windows-1252 as older spreadsheets write. */
export function decodeCsv(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  if (text.includes("\0")) return null; // a binary file (or UTF-16): not ours to guess at
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** The delimiter the header line uses: comma, semicolon (European Excel) or tab. */
function delimiterOf(text: string): string {
  const end = text.search(/\r?\n/);
  const header = end === -1 ? text : text.slice(0, end);
  const outside = header.replace(/"[^"]*"/g, "");
  const counts = [",", ";", "\t"].map((d) => [d, outside.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ",";
}

/**
 * Every row with the line it starts on (1 is the header). Quoted fields may hold the delimiter,
 * doubled quotes and line breaks; CRLF, LF and a lone CR end a row. An unclosed quote, or text
 * right after a closing quote, is malformed. Blank lines are skipped. Stops with `tooMany` once
 * more than `maxRows` rows are read, so a huge file is not held in memory.
 */
export function parseCsv(text: string, maxRows: number, tooMany: () => DomainError): CsvRow[] {
  const d = delimiterOf(text);
  const rows: CsvRow[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    let cell = "";
    let rowDone = false;
    while (!rowDone) {
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw malformed(start, "a quote is never closed");
          const ch = text[i] as string;
          if (ch === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) line++;
          cell += ch;
          i++;
        }
        const next = text[i];
        if (i < n && next !== d && next !== "\n" && next !== "\r") {
          throw malformed(line, "text after a closing quote");
        }
      } else {
        while (i < n && text[i] !== d && text[i] !== "\n" && text[i] !== "\r") {
          cell += text[i];
          i++;
        }
      }
      cells.push(cell);
      cell = "";
      if (i >= n) rowDone = true;
      else if (text[i] === d) i++;
      else {
        i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
        line++;
        rowDone = true;
      }
    }
    if (cells.some((c) => c.trim() !== "")) {
      rows.push({ line: start, cells });
      if (rows.length > maxRows + 1) throw tooMany();
    }
  }
  return rows;
}

/** The index of the header's email column, or -1. */
export function emailColumn(header: string[]): number {
  const names = header.map((h) => h.toLowerCase().replace(/[^a-z0-9]/g, ""));
  for (const wanted of EMAIL_HEADERS) {
    const at = names.indexOf(wanted);
    if (at !== -1) return at;
  }
  return -1;
}
