// A book card in author HTML (ADR 071): stored as a small element naming the book,
// `<div data-book-card="{book id}"></div>`, and made into a card (site) or a table (mail) when
// rendered, from the author's own visible books. One that names no such book renders nothing.

export const BOOK_CARD_ATTR = "data-book-card";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The card as the cleaning leaves it (attributes double-quoted, the id lower case). */
const CARD = /<div data-book-card="([0-9a-f-]{36})"[^>]*>[^<]*<\/div>/g;

/** Whether `id` may name a book in a card (a lower-case UUID). */
export const isBookCardId = (id: string | undefined): id is string => id !== undefined && UUID.test(id);

/** The books named by cards in cleaned author HTML, each once. */
export function bookCardIds(html: string): string[] {
  return [...new Set([...html.matchAll(CARD)].map((m) => m[1] ?? ""))].filter(isBookCardId);
}

/** Each card replaced by what `render` makes of its book's id ("" drops it). */
export const replaceBookCards = (html: string, render: (id: string) => string): string =>
  html.replace(CARD, (_, id: string) => render(id));
