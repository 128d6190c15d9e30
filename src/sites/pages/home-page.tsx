import { type BookCard, sectionShown } from "../../server/modules/sites/sites.service.ts";
import { bookBuyPath, bookPath } from "../../shared/book-path.ts";
import { ArrowRight, ShoppingCart } from "../icons.tsx";
import { cleanHtml, cut, plainText } from "../sanitize.ts";
import { href, type PageEnv, siteName } from "./layout.tsx";
import { Cover, isPreorder, Price, ReleaseDate, Stars } from "./parts.tsx";

/** How many more books the home page shows under the spotlight. */
const MORE_BOOKS = 3;

/**
 * The featured book; else the most recently released (a pre-order is not the latest book); else
 * the author's first book that is out; else the author's first (a pre-order, shown as one).
 */
export function spotlightOf(books: BookCard[], now: Date): BookCard | undefined {
  const featured = books.find((b) => b.isFeatured);
  if (featured) return featured;
  const out = books.filter((b) => !isPreorder(b.releaseDate, now));
  let latest: BookCard | undefined;
  for (const b of out) if (b.releaseDate && (!latest?.releaseDate || b.releaseDate > latest.releaseDate)) latest = b;
  return latest ?? out[0] ?? books[0];
}

export function HomePage(props: { env: PageEnv; books?: BookCard[] }) {
  const { env } = props;
  const w = env.ctx.website;
  const tagline = w.tagline || env.ctx.profile.tagline;
  const home = cleanHtml(w.homePageContent);
  const hero = w.layoutStyle === "hero";
  const books = w.booksEnabled ? (props.books ?? []) : [];
  const spotlight = spotlightOf(books, env.now);
  const preorder = spotlight ? isPreorder(spotlight.releaseDate, env.now) : false;
  const more = books.filter((b) => b !== spotlight).slice(0, MORE_BOOKS);
  const showBooks = sectionShown(env.ctx, "books");
  const showAbout = sectionShown(env.ctx, "about");
  const buttons = (showBooks || showAbout) && (
    <div className="actions">
      {showBooks && (
        <a className="btn b1" href={href(env, "/books")}>
          View Books
        </a>
      )}
      {showAbout && (
        <a className="btn b2" href={href(env, "/about")}>
          About Me
        </a>
      )}
    </div>
  );
  return (
    <>
      {hero ? (
        <section className="hero" aria-labelledby="site-title">
          <div>
            <h1 id="site-title">{siteName(env.ctx)}</h1>
            {tagline && <p>{tagline}</p>}
            {buttons}
          </div>
        </section>
      ) : (
        <section className={w.layoutStyle === "left" ? "intro left" : "intro"} aria-labelledby="site-title">
          <div className="wrap">
            <h1 id="site-title">{siteName(env.ctx)}</h1>
            {tagline && <p className="tag">{tagline}</p>}
            {buttons}
          </div>
        </section>
      )}
      {home && (
        <section className="wrap content" aria-label="Welcome">
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: home }} />
        </section>
      )}
      {spotlight && (
        <section className="spot" aria-labelledby="spot-title">
          <div className="wrap">
            <div className="spot-cover">
              <Cover
                variants={spotlight.coverImageVariants}
                url={spotlight.coverImageUrl}
                alt={`Cover of ${spotlight.title}`}
                sizes="(max-width: 760px) 12rem, 16rem"
                lazy={hero}
              />
            </div>
            <div>
              <p className="eyebrow">
                {spotlight.isFeatured ? "Featured book" : preorder ? "Coming soon" : "Latest book"}
              </p>
              <h2 id="spot-title">{spotlight.title}</h2>
              {spotlight.subtitle && <p className="sub">{spotlight.subtitle}</p>}
              {preorder && (
                <p className="meta preorder">
                  <ReleaseDate date={spotlight.releaseDate} now={env.now} />
                </p>
              )}
              <Stars rating={spotlight.userRating} show={spotlight.showUserRating} />
              <Price minor={spotlight.primaryPriceMinor} currency={spotlight.primaryCurrency} />
              <p className="blurb">{cut(plainText(spotlight.shortBlurb), 220)}</p>
              <div className="actions start">
                {spotlight.firstStore && (
                  // The author's first store: the home page is the same for every reader (ADR 036).
                  <a className="btn" href={href(env, bookBuyPath(spotlight, spotlight.firstStore.id))} rel="nofollow">
                    <ShoppingCart aria-hidden="true" /> {preorder ? "Pre-order" : "Buy"} From{" "}
                    {spotlight.firstStore.name}
                  </a>
                )}
                <a className={spotlight.firstStore ? "btn ghost" : "btn"} href={href(env, bookPath(spotlight))}>
                  View Details<span className="sr">: {spotlight.title}</span>
                </a>
              </div>
            </div>
          </div>
        </section>
      )}
      {more.length > 0 && (
        <section className="wrap shelf" aria-labelledby="shelf-title">
          <div className="shelf-head">
            <h2 id="shelf-title">More books</h2>
            <a className="more" href={href(env, "/books")}>
              All {books.length} books <ArrowRight aria-hidden="true" />
            </a>
          </div>
          <ul>
            {more.map((b) => (
              <li key={b.id}>
                <a href={href(env, bookPath(b))}>
                  <Cover variants={b.coverImageVariants} url={b.coverImageUrl} alt="" sizes="10rem" want={200} lazy />
                  <span className="t">{b.title}</span>
                </a>
                {b.subtitle && <span className="s">{b.subtitle}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
