import { type BookCard, sectionShown } from "../../server/modules/sites/sites.service.ts";
import { ArrowRight, ShoppingCart } from "../icons.tsx";
import { cleanHtml, cut, plainText } from "../sanitize.ts";
import { href, isHttp, type PageEnv, siteName } from "./layout.tsx";
import { Cover, Price, Stars } from "./parts.tsx";

/** How many more books the home page shows under the spotlight. */
const MORE_BOOKS = 3;

/** The featured book; else the most recently released; else the author's first. */
export function spotlightOf(books: BookCard[]): BookCard | undefined {
  const featured = books.find((b) => b.isFeatured);
  if (featured) return featured;
  let latest: BookCard | undefined;
  for (const b of books) if (b.releaseDate && (!latest?.releaseDate || b.releaseDate > latest.releaseDate)) latest = b;
  return latest ?? books[0];
}

export function HomePage(props: { env: PageEnv; books?: BookCard[] }) {
  const { env } = props;
  const w = env.ctx.website;
  const tagline = w.tagline || env.ctx.profile.tagline;
  const home = cleanHtml(w.homePageContent);
  const hero = w.layoutStyle === "hero";
  const books = w.booksEnabled ? (props.books ?? []) : [];
  const spotlight = spotlightOf(books);
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
              <p className="eyebrow">{spotlight.isFeatured ? "Featured book" : "Latest book"}</p>
              <h2 id="spot-title">{spotlight.title}</h2>
              {spotlight.subtitle && <p className="sub">{spotlight.subtitle}</p>}
              <Stars rating={spotlight.userRating} show={spotlight.showUserRating} />
              <Price minor={spotlight.primaryPriceMinor} currency={spotlight.primaryCurrency} />
              <p className="blurb">{cut(plainText(spotlight.shortBlurb), 220)}</p>
              <div className="actions start">
                {isHttp(spotlight.amazonUrl) && (
                  <a className="btn" href={spotlight.amazonUrl.trim()} rel="noopener noreferrer">
                    <ShoppingCart aria-hidden="true" /> Buy From Amazon
                  </a>
                )}
                <a
                  className={isHttp(spotlight.amazonUrl) ? "btn ghost" : "btn"}
                  href={href(env, `/book/${spotlight.id}`)}
                >
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
                <a href={href(env, `/book/${b.id}`)}>
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
