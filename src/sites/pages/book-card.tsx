// What a book's card shows alike on the Books page and a series page: the cover (the first two
// load at once, the first with priority) and, at the foot, the blurb and the way to the book.
import type { BookCard } from "../../server/modules/sites/sites.service.ts";
import { bookPath } from "../../shared/book-path.ts";
import { cut, plainText } from "../sanitize.ts";
import { href, type PageEnv } from "./layout.tsx";
import { Cover } from "./parts.tsx";

/** The cover of the `index`th card of a grid. */
export function CardCover(props: { book: BookCard; index: number }) {
  const { book: b, index: i } = props;
  return (
    <Cover
      variants={b.coverImageVariants}
      url={b.coverImageUrl}
      alt={`Cover of ${b.title}`}
      sizes="12rem"
      want={200}
      lazy={i >= 2}
      priority={i === 0}
    />
  );
}

/** The card's blurb (150 characters at most) and its link to the book's page. */
export function CardFoot(props: { env: PageEnv; book: BookCard }) {
  const { env, book: b } = props;
  return (
    <>
      <p className="blurb">{cut(plainText(b.shortBlurb), 150)}</p>
      <div>
        <a className="btn" href={href(env, bookPath(b))}>
          View Details<span className="sr">: {b.title}</span>
        </a>
      </div>
    </>
  );
}
