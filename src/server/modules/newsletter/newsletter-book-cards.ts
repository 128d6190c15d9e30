// Book cards in a newsletter's mail copy (ADR 071): each `<div data-book-card="{id}">` naming one
// of the author's visible books becomes a one-column table with inline styles (cover by absolute
// address, title, a button to the book's page) that reads well at phone width; any other card
// (another author's book, a deleted or hidden one) is dropped.
import type { Db } from "../../../db/client.ts";
import { bookCardIds, replaceBookCards } from "../../../shared/book-card.ts";
import { bookPath } from "../../../shared/book-path.ts";
import { button, escapeHtml, type MailHtml } from "../mail/mail-layout.ts";
import { type BookCard, listVisibleBooks } from "../sites/sites.service.ts";

export type MailBook = Pick<BookCard, "id" | "title" | "subtitle" | "slug" | "coverImageUrl" | "coverImageVariants">;

/** As many books as any plan shows: a card names one of them. */
const ANY_PLAN = 1000;

/** The author's visible books the cards in `html` name (no query when there is no card). */
export async function mailBookCardBooks(db: Db, userId: string, html: string): Promise<Map<string, MailBook>> {
  const ids = bookCardIds(html);
  if (ids.length === 0) return new Map();
  const books = await listVisibleBooks(db, userId, ANY_PLAN);
  return new Map(books.filter((b) => ids.includes(b.id)).map((b) => [b.id, b]));
}

/** The cover's address for a mail: absolute, about 240 px wide where a size is offered. */
function coverUrl(b: MailBook, origin: string): string | null {
  const v = b.coverImageVariants?.length ? b.coverImageVariants : null;
  const src = (v ? (v.find((x) => x.width >= 240) ?? v.at(-1))?.url : null) ?? b.coverImageUrl;
  if (!src) return null;
  if (src.startsWith("/") && !src.startsWith("//")) return `${origin}${src}`;
  return /^https?:\/\/[^\s<>"]+$/i.test(src) ? src : null;
}

const SERIF = "font-family:Georgia,'Times New Roman',serif;";

export function mailBookCard(b: MailBook, siteUrl: string): string {
  const origin = new URL(siteUrl).origin;
  const page = `${origin}${bookPath(b)}`;
  const cover = coverUrl(b, origin);
  const img = cover
    ? `<a href="${escapeHtml(page)}"><img src="${escapeHtml(cover)}" width="120" alt="${escapeHtml(`Cover of ${b.title}`)}" style="display:block;width:120px;max-width:100%;height:auto;margin:0 auto 14px;border:0;border-radius:4px;"></a>`
    : "";
  const sub = b.subtitle
    ? `<p style="margin:0 0 6px;${SERIF}font-size:15px;line-height:1.4;font-style:italic;color:#5b6169;">${escapeHtml(b.subtitle)}</p>`
    : "";
  return (
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;border:1px solid #e4e0d8;border-radius:8px;background:#faf9f7;">` +
    `<tr><td align="center" style="padding:20px 16px 4px;text-align:center;">${img}` +
    `<p style="margin:0 0 6px;${SERIF}font-size:19px;line-height:1.3;font-weight:bold;color:#1f2328;">${escapeHtml(b.title)}</p>` +
    `${sub}${button(page, "Buy the book").html}</td></tr></table>`
  );
}

/** The mail body with its book cards made (or dropped). */
export function withMailBookCards(body: MailHtml, books: Map<string, MailBook>, siteUrl: string): MailHtml {
  return {
    html: replaceBookCards(body.html, (id) => {
      const b = books.get(id);
      return b ? mailBookCard(b, siteUrl) : "";
    }),
  };
}
