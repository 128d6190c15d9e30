import type { BookCard } from "../../server/modules/sites/sites.service.ts";
import { CardCover, CardFoot } from "./book-card.tsx";
import type { PageEnv } from "./layout.tsx";
import { isPreorder, Price, ReleaseDate, Stars } from "./parts.tsx";

export function BooksPage(props: { env: PageEnv; books: BookCard[] }) {
  const { env, books } = props;
  const published = books.filter((b) => !isPreorder(b.releaseDate, env.now)).length;
  const coming = books.length - published;
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Books</h1>
        <p>
          {published > 0 && `Explore my collection of ${published} published ${published === 1 ? "work" : "works"}`}
          {published > 0 && coming > 0 && ", and "}
          {coming > 0 &&
            `${published > 0 ? "" : "Coming soon: "}${coming} ${coming === 1 ? "book" : "books"} on pre-order`}
          {books.length > 0 && "."}
        </p>
      </div>
      {books.length === 0 ? (
        <div className="empty">
          <h2>No books yet</h2>
          <p>Coming soon - books will be available here.</p>
        </div>
      ) : (
        <ul className="grid">
          {books.map((b, i) => (
            <li key={b.id}>
              <article className="card">
                <div className="cover">
                  <CardCover book={b} index={i} />
                  <div className="badges">
                    {b.isFeatured && <span className="badge feat">Featured</span>}
                    {b.bestsellerBadgeEnabled && <span className="badge best">Bestseller</span>}
                    {b.promoBadgeEnabled && b.promoBadgeText?.trim() && (
                      <span className="badge promo">{b.promoBadgeText}</span>
                    )}
                  </div>
                </div>
                <div className="body">
                  <h2>{b.title}</h2>
                  {b.subtitle && <p className="sub">{b.subtitle}</p>}
                  <p className="meta">
                    {b.firstGenre && <span className="badge">{b.firstGenre}</span>}
                    <ReleaseDate date={b.releaseDate} now={env.now} />
                  </p>
                  <Stars rating={b.userRating} show={b.showUserRating} />
                  <Price minor={b.primaryPriceMinor} currency={b.primaryCurrency} />
                  <CardFoot env={env} book={b} />
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
