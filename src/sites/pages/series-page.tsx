// A series: its books in reading order, the first marked as where to start.
import type { BookCard } from "../../server/modules/sites/sites.service.ts";
import { CardCover, CardFoot } from "./book-card.tsx";
import type { PageEnv } from "./layout.tsx";
import { type Crumb, Crumbs, ReleaseDate } from "./parts.tsx";

/** Home › Books › the series (the page's BreadcrumbList says the same). */
export const seriesCrumbs = (name: string): Crumb[] => [
  { name: "Home", path: "/" },
  { name: "Books", path: "/books" },
  { name },
];

export function SeriesPage(props: { env: PageEnv; name: string; description: string | null; books: BookCard[] }) {
  const { env, name, description, books } = props;
  return (
    <div className="wrap">
      <Crumbs env={env} items={seriesCrumbs(name)} />
      <div className="page-head">
        <h1>{name}</h1>
        {description && <p>{description}</p>}
        <p>
          A series of {books.length} {books.length === 1 ? "book" : "books"} by {env.ctx.profile.name}, in reading
          order.
        </p>
      </div>
      <ol className="grid">
        {books.map((b, i) => (
          <li key={b.id}>
            <article className="card">
              <div className="cover">
                <CardCover book={b} index={i} />
              </div>
              <div className="body">
                <p className="meta">
                  <span className="badge">
                    Book {i + 1} of {books.length}
                  </span>
                  {i === 0 && <span className="badge feat">Start here</span>}
                </p>
                <h2>{b.title}</h2>
                {b.subtitle && <p className="sub">{b.subtitle}</p>}
                {b.releaseDate && (
                  <p className="meta">
                    <ReleaseDate date={b.releaseDate} now={env.now} />
                  </p>
                )}
                <CardFoot env={env} book={b} />
              </div>
            </article>
          </li>
        ))}
      </ol>
    </div>
  );
}
