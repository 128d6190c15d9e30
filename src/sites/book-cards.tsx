// Book cards in author HTML on a public page (ADR 071): each `<div data-book-card="{id}">` of
// cleaned HTML becomes the book's card (cover, title, the way to its page) when it is one of the
// site owner's books readers may see; any other (another author's, deleted, hidden) is dropped.
import { renderToStaticMarkup } from "react-dom/server";
import type { Db } from "../db/client.ts";
import { type BookCard, listVisibleBooks, type SiteContext } from "../server/modules/sites/sites.service.ts";
import { bookCardIds, replaceBookCards } from "../shared/book-card.ts";
import { bookPath } from "../shared/book-path.ts";
import { href, type PageEnv } from "./pages/layout.tsx";
import { Cover } from "./pages/parts.tsx";
import { cleanHtml } from "./sanitize.ts";

/** The books the cards in `html` name, among those readers may see (no query when there is no card). */
export async function bookCardBooks(db: Db, ctx: SiteContext, html: string): Promise<Map<string, BookCard>> {
  const ids = bookCardIds(html);
  if (ids.length === 0 || !ctx.website.booksEnabled) return new Map();
  const books = await listVisibleBooks(db, ctx.website.userId, ctx.bookLimit);
  return new Map(books.filter((b) => ids.includes(b.id)).map((b) => [b.id, b]));
}

export function BookCardEmbed(props: { env: PageEnv; book: BookCard }) {
  const { env, book: b } = props;
  return (
    <aside className="bookcard" aria-label={`Book: ${b.title}`}>
      {/* The title beside it names the book: the cover is decoration to a screen reader. */}
      <div className="bookcard-cover">
        <Cover variants={b.coverImageVariants} url={b.coverImageUrl} alt="" sizes="8rem" want={200} lazy />
      </div>
      <div>
        <p className="bookcard-title">{b.title}</p>
        {b.subtitle ? <p className="bookcard-sub">{b.subtitle}</p> : null}
        <a className="btn" href={href(env, bookPath(b))}>
          Buy the book<span className="sr">: {b.title}</span>
        </a>
      </div>
    </aside>
  );
}

/** Cleaned author HTML with its cards made (or dropped). */
export function withBookCards(env: PageEnv, cleaned: string, books: Map<string, BookCard>): string {
  return replaceBookCards(cleaned, (id) => {
    const book = books.get(id);
    return book ? renderToStaticMarkup(<BookCardEmbed env={env} book={book} />) : "";
  });
}

/** A post's or a newsletter's body for its page: cleaned, with its book cards made. */
export async function pageBody(db: Db, env: PageEnv, content: string): Promise<string> {
  const cleaned = cleanHtml(content);
  return withBookCards(env, cleaned, await bookCardBooks(db, env.ctx, cleaned));
}
