import { daysUntil } from "../../server/modules/books/launches.service.ts";
import { type BookDetail, seriesSlug } from "../../server/modules/sites/sites.service.ts";
import { bookAlertPath, bookBuyPath, bookPath } from "../../shared/book-path.ts";
import { formatDate } from "../../shared/dates.ts";
import type { BuyBox, Store } from "../buy-box.ts";
import { Headphones, ShoppingCart, SquarePen } from "../icons.tsx";
import { cleanHtml, plainText } from "../sanitize.ts";
import { href, isHttp, type PageEnv } from "./layout.tsx";
import { Cover, type Crumb, Crumbs, EmailInput, isoDate, Price, price, Stars } from "./parts.tsx";

/** Home › Books › the book (book pages exist only while Books is on; the BreadcrumbList matches). */
export const bookCrumbs = (title: string): Crumb[] => [
  { name: "Home", path: "/" },
  { name: "Books", path: "/books" },
  { name: title },
];

export function BookPage(props: {
  env: PageEnv;
  detail: BookDetail;
  /** The reader's first store and the others (buy-box.ts), chosen for their country group. */
  buyBox: BuyBox;
  editHref?: string;
  /** After a "tell me when it's out" sign-up: its outcome. */
  alert?: { done: true } | { error: string | undefined };
}) {
  const { env, detail, alert } = props;
  const { first, others } = props.buyBox;
  const b = detail.book;
  const formats = [
    b.formatEbook && "eBook",
    b.formatPaperback && "Paperback",
    b.formatHardback && "Hardback",
    b.formatAudiobook && "Audiobook",
    b.formatKindleUnlimited && "Kindle Unlimited",
  ].filter(Boolean) as string[];
  const buyHref = (s: Store) => href(env, bookBuyPath(b, s.id));
  // The reader's store's own price when the author gave one, else the book's.
  const shownPrice =
    first?.priceMinor != null && first.currency
      ? { minor: first.priceMinor, currency: first.currency }
      : { minor: b.primaryPriceMinor, currency: b.primaryCurrency };
  const reviews = (detail.reviews ?? []).slice(0, 5);
  const blurb = cleanHtml(b.shortBlurb);
  const sample = b.audiobookEnabled && isHttp(b.audioSampleUrl) ? b.audioSampleUrl.trim() : null;
  const snippet = plainText(b.reviewSnippet);
  // Where the book stands in its series, among the series' books readers can see.
  const series = detail.series ?? [];
  const at = series.findIndex((x) => x.id === b.id);
  const next = at >= 0 ? series[at + 1] : undefined;
  const seriesName = b.seriesName?.trim();
  const days = daysUntil(b.releaseDate, env.now);
  const preorder = days !== null && days > 0;
  return (
    <div className="wrap">
      <Crumbs env={env} items={bookCrumbs(b.title)} />
      <article className="book">
        <div className="cover">
          <Cover
            variants={b.coverImageVariants}
            url={b.coverImageUrl}
            alt={`Cover of ${b.title}`}
            sizes="(max-width: 760px) 15rem, 267px"
            priority
          />
        </div>
        <div>
          <h1>{b.title}</h1>
          {b.subtitle && <p className="sub">{b.subtitle}</p>}
          {seriesName && (
            <p className="series">
              {at >= 0 ? `Book ${at + 1} of ${series.length} in ` : ""}
              <a href={href(env, `/series/${seriesSlug(seriesName)}`)}>{seriesName}</a>
            </p>
          )}
          <p className="by">by {b.author}</p>
          {b.releaseDate && preorder ? (
            <p className="meta preorder">
              <strong>
                Out on <time dateTime={isoDate(b.releaseDate)}>{formatDate(b.releaseDate, "long")}</time> —{" "}
                {days === 1 ? "tomorrow" : `in ${days} days`}
              </strong>
            </p>
          ) : (
            b.releaseDate && (
              <p className="meta">
                <span>
                  Published <time dateTime={isoDate(b.releaseDate)}>{formatDate(b.releaseDate, "long")}</time>
                </span>
              </p>
            )
          )}
          {b.audiobookEnabled && b.narratorName && <p className="meta">Narrated by {b.narratorName}</p>}
          <Stars rating={b.userRating} show={b.showUserRating} />
          <Price minor={shownPrice.minor} currency={shownPrice.currency} />
          {(formats.length > 0 || (detail.genres?.length ?? 0) > 0) && (
            <ul className="row" aria-label="Formats and genres">
              {formats.map((f) => (
                <li className="badge fmt" key={f}>
                  {f}
                </li>
              ))}
              {(detail.genres ?? []).map((g) => (
                <li className="badge" key={`g-${g}`}>
                  {g}
                </li>
              ))}
            </ul>
          )}
          <div className="buy">
            {first && (
              <a className="btn" href={buyHref(first)} rel="nofollow" data-store={first.storefront ?? "other"}>
                <ShoppingCart aria-hidden="true" /> {preorder ? "Pre-order" : "Buy"} From {first.name}
              </a>
            )}
            {sample && (
              <a className="btn ghost" href={sample} rel="noopener noreferrer">
                <Headphones aria-hidden="true" /> Listen to Sample
              </a>
            )}
            {others.length > 0 && (
              <details className="drop">
                <summary className="btn ghost">
                  Other stores <span aria-hidden="true">▾</span>
                </summary>
                <ul>
                  {others.map((s) => (
                    <li key={s.id}>
                      <a href={buyHref(s)} rel="nofollow" data-store={s.storefront ?? "other"}>
                        {s.name}
                        {s.priceMinor != null && s.currency && (
                          <span className="store-price"> {price(s.priceMinor, s.currency)}</span>
                        )}
                      </a>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
          {preorder && (
            <section className="panel" aria-labelledby="tell-me">
              <h2 id="tell-me" className="panel-title">
                Tell me when it's out
              </h2>
              {alert && "done" in alert ? (
                <p className="notice" role="status">
                  Check your inbox: we sent you a link to confirm. Then you'll get one email on release day.
                </p>
              ) : (
                <>
                  <p className="hint">One email on release day, nothing else.</p>
                  {alert?.error && (
                    <p className="error" role="alert" id="alert-error">
                      {alert.error}
                    </p>
                  )}
                  <form className="inline" method="post" action={href(env, bookAlertPath(b))}>
                    <EmailInput id="alert-email" errorId="alert-error" error={alert?.error} disabled={env.readOnly} />
                    <button className="btn" type="submit" disabled={env.readOnly}>
                      Tell me
                    </button>
                  </form>
                </>
              )}
            </section>
          )}
          {snippet && (
            <figure className="feature">
              <blockquote>
                <p>{snippet}</p>
              </blockquote>
            </figure>
          )}
          {blurb && (
            <section className="block" aria-labelledby="about-book">
              <h2 id="about-book">About This Book</h2>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
              <div className="prose" dangerouslySetInnerHTML={{ __html: blurb }} />
            </section>
          )}
          {reviews.length > 0 && (
            <section className="block" aria-labelledby="reviews">
              <h2 id="reviews">Reviews</h2>
              {reviews.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: reviews have no id here and never reorder
                <figure className="review" key={i}>
                  <blockquote>
                    <p>{plainText(r.reviewText)}</p>
                  </blockquote>
                  <figcaption className="meta">
                    <strong>{plainText(r.reviewerName) || "A reader"}</strong>
                    <Stars rating={r.rating} show />
                    {r.reviewDate && <time dateTime={isoDate(r.reviewDate)}>{formatDate(r.reviewDate, "long")}</time>}
                  </figcaption>
                </figure>
              ))}
            </section>
          )}
          {next && seriesName && (
            <p className="block">
              Next in {seriesName}: <a href={href(env, bookPath(next))}>{next.title}</a>
            </p>
          )}
        </div>
      </article>
      {props.editHref && (
        <a className="fab" href={props.editHref}>
          <SquarePen aria-hidden="true" /> Edit Book
        </a>
      )}
    </div>
  );
}
