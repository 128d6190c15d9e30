import type { BookCard } from "../../server/modules/sites/sites.service.ts";
import { ArrowRight } from "../icons.tsx";
import { cleanHtml, cut, plainText } from "../sanitize.ts";
import { href, type PageEnv, siteName } from "./layout.tsx";
import { Cover, Stars } from "./parts.tsx";

export function HomePage(props: { env: PageEnv; books?: BookCard[] }) {
  const { env } = props;
  const w = env.ctx.website;
  const tagline = w.tagline || env.ctx.profile.tagline;
  const home = cleanHtml(w.homePageContent);
  const hero = w.layoutStyle === "hero";
  const books = w.booksEnabled ? (props.books ?? []) : [];
  const spotlight = books.find((b) => b.isFeatured) ?? books[0];
  const buttons = (w.booksEnabled || w.aboutEnabled) && (
    <div className="actions">
      {w.booksEnabled && (
        <a className="btn b1" href={href(env, "/books")}>
          View Books
        </a>
      )}
      {w.aboutEnabled && (
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
              <p className="blurb">{cut(plainText(spotlight.shortBlurb), 150)}</p>
              <div className="actions start">
                <a className="btn" href={href(env, `/book/${spotlight.id}`)}>
                  View Details
                </a>
                {books.length > 1 && (
                  <a className="more" href={href(env, "/books")}>
                    All {books.length} books <ArrowRight aria-hidden="true" />
                  </a>
                )}
              </div>
            </div>
          </div>
        </section>
      )}
    </>
  );
}
