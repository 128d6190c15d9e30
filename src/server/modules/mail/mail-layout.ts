// The one form of every mail we send (ADR 065): an HTML part that common mail clients render
// (tables and inline styles only, no external CSS, at most 600 px wide, one column that fits a
// phone) and a plain-text part with the same words. Everything interpolated is escaped here; a
// caller builds its body from `paragraph`, `button` and `heading`, never from strings of HTML.
import { htmlToText } from "../../../shared/html-text.ts";

/** HTML this module made (escaped): the only thing the layout puts into a mail as it is. */
export type MailHtml = { readonly html: string };

const safe = (html: string): MailHtml => ({ html });

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const FONT = "font-family:Georgia,'Times New Roman',serif;";
const SANS = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const INK = "#1f2328";
const MUTED = "#5b6169";
const ACCENT = "#2b4c7e";

/** Only http(s) links go into a mail; anything else is left as text. */
const isWebLink = (href: string) => /^https?:\/\/[^\s<>"]+$/i.test(href);

const URL_IN_TEXT = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)]/g;

const anchor = (href: string, label: string, style = `color:${ACCENT};text-decoration:underline;`) =>
  `<a href="${escapeHtml(href)}" style="${style}">${escapeHtml(label)}</a>`;

/** A line of text with its web addresses as links (the address is the link's words). */
function linkify(line: string): string {
  let out = "";
  let at = 0;
  for (const m of line.matchAll(URL_IN_TEXT)) {
    out += escapeHtml(line.slice(at, m.index)) + anchor(m[0], m[0]);
    at = (m.index ?? 0) + m[0].length;
  }
  return out + escapeHtml(line.slice(at));
}

/** One paragraph of plain text: its line breaks kept, its web addresses linked. */
export function paragraph(text: string, opts: { muted?: boolean } = {}): MailHtml {
  const colour = opts.muted ? MUTED : INK;
  const lines = text.split("\n").map(linkify).join("<br>\n");
  return safe(`<p style="margin:0 0 16px;${FONT}font-size:17px;line-height:1.55;color:${colour};">${lines}</p>`);
}

export function heading(text: string): MailHtml {
  return safe(
    `<h1 style="margin:0 0 16px;${FONT}font-size:24px;line-height:1.3;font-weight:bold;color:${INK};">${escapeHtml(text)}</h1>`,
  );
}

/** A big link that looks like a button (a table cell, which every client pads). */
export function button(href: string, label: string): MailHtml {
  if (!isWebLink(href)) return paragraph(`${label}: ${href}`);
  return safe(
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr>` +
      `<td style="border-radius:6px;background:${ACCENT};">` +
      anchor(
        href,
        label,
        `display:inline-block;padding:12px 22px;${SANS}font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;`,
      ) +
      `</td></tr></table>`,
  );
}

/** Small print under the mail: why the reader gets it, how to stop it. */
export function footnote(parts: (string | { href: string; label: string })[]): MailHtml {
  const inner = parts
    .map((p) =>
      typeof p === "string" ? escapeHtml(p) : isWebLink(p.href) ? anchor(p.href, p.label, `color:${MUTED};`) : "",
    )
    .join("");
  return safe(`<p style="margin:0 0 8px;${SANS}font-size:13px;line-height:1.5;color:${MUTED};">${inner}</p>`);
}

/** The sender's postal address under the small print, its lines kept; nothing when none is given. */
export function postalAddress(address: string | null | undefined): MailHtml {
  const lines = (address ?? "").split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0) return safe("");
  return safe(
    `<p style="margin:0 0 8px;${SANS}font-size:13px;line-height:1.5;color:${MUTED};">${lines.map(escapeHtml).join("<br>\n")}</p>`,
  );
}

export const join = (...parts: MailHtml[]): MailHtml => safe(parts.map((p) => p.html).join("\n"));

/** A plain-text mail as HTML: its paragraphs (blank-line separated), line breaks and links kept. */
export function textToMailHtml(text: string): MailHtml {
  const paras = text
    .replace(/\r\n/g, "\n")
    .trim()
    .split(/\n[ \t]*\n+/)
    .filter((p) => p.trim() !== "");
  return join(...paras.map((p) => paragraph(p)));
}

/**
 * The plain-text part of a body made here: paragraphs apart by a blank line, `<br>` a line break,
 * a link as its address (after its words when they differ). The words of each line are
 * `htmlToText`'s, the same the public site reads from HTML.
 */
export function mailText(body: MailHtml): string {
  const marked = body.html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_, href: string, label: string) => {
      const words = htmlToText(label);
      const url = htmlToText(href);
      return escapeHtml(words === url ? url : `${words}: ${url}`);
    })
    .replace(/<img\s[^>]*alt="([^"]+)"[^>]*>/gi, "[$1]")
    .replace(/<li[^>]*>/gi, "\uE000- ")
    .replace(/<br\s*\/?>/gi, "\uE000")
    .replace(/<\/(p|h\d|table|ul|ol|blockquote|pre|figure)>/gi, "\uE001");
  return `${htmlToText(marked)
    .replace(/\s*\uE000\s*/g, "\n")
    .replace(/\s*\uE001\s*/g, "\n\n")
    .trim()}\n`;
}

export type MailLayout = {
  /** The document's title (some clients show it); the mail's subject. */
  title: string;
  /** The first words an inbox shows next to the subject; hidden in the mail itself. */
  preheader?: string;
  body: MailHtml;
  /** Small print under the card (the sender, an unsubscribe link). */
  footer?: MailHtml;
};

/**
 * An author's own writing as the post editor made it, already cleaned by the one rule for author
 * HTML (`cleanAuthorHtml`): put in as it is, with pictures kept within the column.
 */
export function authorHtml(cleaned: string): MailHtml {
  const styled = cleaned
    .replace(/<img\b/gi, '<img style="max-width:100%;height:auto;"')
    .replace(/<p>/gi, `<p style="margin:0 0 16px;${FONT}font-size:17px;line-height:1.6;color:${INK};">`);
  return safe(styled);
}

/** The whole HTML document of a mail. */
export function mailDocument(m: MailLayout): string {
  const preheader = m.preheader
    ? `<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;">${escapeHtml(m.preheader)}</div>\n`
    : "";
  const footer = m.footer ? `<tr><td style="padding:16px 28px 0;">\n${m.footer.html}\n</td></tr>\n` : "";
  return (
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<meta name="color-scheme" content="light">\n<title>${escapeHtml(m.title)}</title>\n</head>\n` +
    `<body style="margin:0;padding:0;background:#f3f1ed;-webkit-text-size-adjust:100%;">\n${preheader}` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f1ed;">\n` +
    `<tr><td align="center" style="padding:24px 12px;">\n` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;">\n` +
    `<tr><td style="background:#ffffff;border:1px solid #e4e0d8;border-radius:8px;padding:28px 24px 12px;">\n` +
    `${m.body.html}\n</td></tr>\n${footer}</table>\n</td></tr>\n</table>\n</body>\n</html>\n`
  );
}

/** Both parts of a mail built here: the HTML document, and its text from the same HTML. */
export function mailParts(m: MailLayout): { html: string; text: string } {
  const text = m.footer ? `${mailText(m.body)}\n-- \n${mailText(m.footer)}` : mailText(m.body);
  return { html: mailDocument(m), text };
}
