// The pages of a public author site, as plain server-rendered React (no client code). Everything
// works with JavaScript off: filters are links, Read More and the email reveal are <details>,
// forms post, and the cookie banner's Close is a checkbox the stylesheet reacts to.

import type { ReactNode } from "react";
import type { ImageVariants } from "../db/schema/books.ts";
import type { BookCard, BookDetail, PostView, SiteContext } from "../server/modules/sites/sites.service.ts";
import { CURRENCIES, type Currency } from "../shared/enums.ts";
import { CURRENCY_SYMBOLS } from "../shared/plans.ts";
import {
  ArrowRight,
  AtSign,
  Book,
  Bookmark,
  BookOpen,
  Camera,
  Cloud,
  Feather,
  FileText,
  Globe,
  Headphones,
  Home,
  Library,
  Mail,
  Music,
  Newspaper,
  Pen,
  PenTool,
  Play,
  ShoppingCart,
  SquarePen,
  type StaticIcon,
  User,
  Users,
} from "./icons.tsx";
import { memoByString } from "./memo.ts";
import { cleanHtml, cut, plainText } from "./sanitize.ts";

export type SiteMode = "tenant" | "preview" | "demo";

/** What every page knows about the request. */
export type PageEnv = {
  ctx: SiteContext;
  base: string;
  mode: SiteMode;
  path: string;
  showCookieBanner: boolean;
  year: number;
};

const ICONS = { BookOpen, Book, Library, Bookmark, PenTool, Feather, Pen, FileText, Mail, Newspaper, User, Home };

export const href = (env: PageEnv, p: string) => (p === "/" ? env.base || "/" : `${env.base}${p}`);
export const siteName = (ctx: SiteContext) => ctx.website.websiteName?.trim() || "Author Site";

export function price(minor: number | null, currency: string): string | null {
  if (minor === null || minor === undefined) return null;
  const symbol = (CURRENCIES as readonly string[]).includes(currency) ? CURRENCY_SYMBOLS[currency as Currency] : "";
  return `${symbol}${(minor / 100).toFixed(2)}`;
}

// One formatter for the process: toLocaleDateString builds a new one on every call.
const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

// Intl formatting is slow next to the rest of a render, and a site has few distinct dates.
const formatDay = memoByString((day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? "" : DATE_FORMAT.format(date);
});

export function formatDate(d: string | Date | null | undefined): string | null {
  if (!d) return null;
  if (typeof d !== "string" && Number.isNaN(d.getTime())) return null;
  return formatDay(typeof d === "string" ? d.slice(0, 10) : d.toISOString().slice(0, 10)) || null;
}

const isoDate = (d: string | Date) => (typeof d === "string" ? d.slice(0, 10) : d.toISOString());

/** The spec's rule: short local parts stay, longer ones keep first and last with at least three stars. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return email;
  const local = email.slice(0, at);
  if (local.length <= 2) return email;
  return `${local[0]}${"*".repeat(Math.max(3, local.length - 2))}${local.at(-1)}${email.slice(at)}`;
}

const isHttp = (u: string | null | undefined): u is string => !!u && /^https?:\/\/[^\s]+$/i.test(u.trim());

export function navItems(ctx: SiteContext) {
  const w = ctx.website;
  return [
    { path: "/", label: "Home", on: true },
    { path: "/books", label: "Books", on: w.booksEnabled },
    { path: "/about", label: "About", on: w.aboutEnabled },
    { path: "/blog", label: "Blog", on: w.newsEnabled },
    { path: "/newsletter", label: "Newsletter", on: w.newsletterEnabled },
    { path: "/contact", label: "Contact", on: w.contactEnabled },
  ].filter((i) => i.on);
}

export const PLATFORMS: Record<string, { label: string; Icon: StaticIcon }> = {
  facebook: { label: "Facebook", Icon: Users },
  instagram: { label: "Instagram", Icon: Camera },
  youtube: { label: "YouTube", Icon: Play },
  twitter: { label: "Twitter", Icon: AtSign },
  tiktok: { label: "TikTok", Icon: Music },
  bluesky: { label: "Bluesky", Icon: Cloud },
  website: { label: "Website", Icon: Globe },
};

/** Enabled, non-blank, non-email links on platforms we know; the rest are skipped. */
export function publicSocialLinks(ctx: SiteContext) {
  const raw: unknown = ctx.contact?.socialLinks;
  const list = Array.isArray(raw) ? raw : [];
  return list.filter(
    (l): l is { platform: string; url: string; enabled: boolean } =>
      !!l &&
      typeof l === "object" &&
      typeof l.platform === "string" &&
      typeof l.url === "string" &&
      l.enabled === true &&
      l.url.trim() !== "" &&
      l.platform !== "email" &&
      Object.hasOwn(PLATFORMS, l.platform) &&
      isHttp(l.url),
  );
}

function SocialLinks(props: { ctx: SiteContext; className: string }) {
  const links = publicSocialLinks(props.ctx);
  if (!links.length) return null;
  return (
    <ul className={props.className}>
      {links.map((l) => {
        const p = PLATFORMS[l.platform];
        if (!p) return null;
        return (
          <li key={`${l.platform}-${l.url}`}>
            <a href={l.url.trim()} rel="noopener noreferrer me">
              <p.Icon aria-hidden="true" /> {p.label}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

export function Layout(props: { env: PageEnv; children: ReactNode }) {
  const { env } = props;
  const Icon = ICONS[env.ctx.website.logoIcon as keyof typeof ICONS] ?? BookOpen;
  const current = env.path === "/" ? "/" : `/${env.path.split("/")[1]}`;
  const nav = navItems(env.ctx);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      {env.mode === "demo" && (
        <aside className="demo" aria-label="Demo notice">
          <div className="wrap">
            <p>Demo Site - This is a preview of an author website built with Bookplate. Forms are disabled.</p>
            <a href="/" id="demo-close">
              Close
            </a>
          </div>
        </aside>
      )}
      <header className="site">
        <div className="wrap">
          <a className="brand" href={href(env, "/")}>
            <Icon aria-hidden="true" />
            <span>{siteName(env.ctx)}</span>
          </a>
          <nav className="main" aria-label="Main">
            <ul>
              {nav.map((i) => (
                <li key={i.path}>
                  <a href={href(env, i.path)} aria-current={current === i.path ? "page" : undefined}>
                    {i.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main">{props.children}</main>
      <footer className="site">
        <div className="wrap">
          <div className="fcol">
            <p className="fname">{siteName(env.ctx)}</p>
            {(env.ctx.website.tagline || env.ctx.profile.tagline) && (
              <p className="ftag">{env.ctx.website.tagline || env.ctx.profile.tagline}</p>
            )}
            <SocialLinks ctx={env.ctx} className="fsocial" />
          </div>
          <nav aria-label="Footer">
            <ul>
              {nav.map((i) => (
                <li key={i.path}>
                  <a href={href(env, i.path)}>{i.label}</a>
                </li>
              ))}
              <li>
                <a href={href(env, "/privacy")}>Privacy &amp; Legal</a>
              </li>
            </ul>
          </nav>
        </div>
        <div className="wrap fbase">
          <p>
            © {env.year} {siteName(env.ctx)}. All rights reserved.
          </p>
          <p>Author website by Bookplate</p>
        </div>
      </footer>
      {env.showCookieBanner && (
        <form id="cc" method="post" action={href(env, "/cookie-consent")} aria-label="Cookie consent">
          <input type="hidden" name="back" value={href(env, env.path)} />
          {/* Close only hides the banner for this page; it returns until a choice is stored. */}
          <input type="checkbox" id="ccx" className="sr" />
          <p>This site uses essential cookies only. Do you accept cookies?</p>
          <div className="ccb">
            <button type="submit" name="choice" value="accepted" className="ok">
              Accept
            </button>
            <button type="submit" name="choice" value="declined">
              Decline
            </button>
            <label htmlFor="ccx" className="x">
              <span aria-hidden="true">×</span>
              <span className="sr">Close cookie banner</span>
            </label>
          </div>
        </form>
      )}
    </>
  );
}

export function Cover(props: {
  variants: ImageVariants | null;
  url: string | null;
  alt: string;
  sizes: string;
  /** Below the fold: load lazily. Above it on the page that it is the main image of: fetch first. */
  lazy?: boolean;
  priority?: boolean;
  /** The width the largest display needs; the default picks the 400 px variant. */
  want?: number;
}) {
  const v = props.variants?.length ? props.variants : null;
  const main = v ? (v.find((x) => x.width >= (props.want ?? 400)) ?? v.at(-1)) : null;
  const src = main?.url ?? props.url;
  if (!src) return <div className="nocover" aria-hidden="true" />;
  return (
    <img
      src={src}
      srcSet={v && v.length > 1 ? v.map((x) => `${x.url} ${x.width}w`).join(", ") : undefined}
      sizes={v && v.length > 1 ? props.sizes : undefined}
      width={main?.width ?? 400}
      height={main?.height ?? 600}
      alt={props.alt}
      loading={props.lazy ? "lazy" : undefined}
      fetchPriority={props.priority ? "high" : undefined}
      decoding={props.priority ? undefined : "async"}
    />
  );
}

export function Stars(props: { rating: number | null; show: boolean }) {
  const r = Number(props.rating);
  if (!props.show || !(r > 0 && r <= 5)) return null;
  // Drawn to the nearest half star (4.5 is four and a half, not five); the number says it exactly.
  const halves = Math.round(r * 2);
  const full = Math.floor(halves / 2);
  const half = halves % 2 === 1;
  return (
    <span className="stars" role="img" aria-label={`Rated ${r.toFixed(1)} out of 5`}>
      <span aria-hidden="true">
        {"★".repeat(full)}
        {half ? <span className="half">★</span> : null}
        <span className="off">{"★".repeat(5 - full - (half ? 1 : 0))}</span>
      </span>
      <span className="num" aria-hidden="true">
        {r.toFixed(1)}
      </span>
    </span>
  );
}

function Price(props: { minor: number | null; currency: string }) {
  const p = price(props.minor, props.currency);
  if (!p) return null;
  return (
    <p className="price">
      <small>Prices From</small> {p}
    </p>
  );
}

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

export function BooksPage(props: { env: PageEnv; books: BookCard[] }) {
  const { env, books } = props;
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Books</h1>
        <p>Explore my collection of {books.length} published works.</p>
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
                  <Cover
                    variants={b.coverImageVariants}
                    url={b.coverImageUrl}
                    alt={`Cover of ${b.title}`}
                    sizes="12rem"
                    want={200}
                    lazy={i >= 2}
                    priority={i === 0}
                  />
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
                    {b.releaseDate && <time dateTime={isoDate(b.releaseDate)}>{formatDate(b.releaseDate)}</time>}
                  </p>
                  <Stars rating={b.userRating} show={b.showUserRating} />
                  <Price minor={b.primaryPriceMinor} currency={b.primaryCurrency} />
                  <p className="blurb">{cut(plainText(b.shortBlurb), 150)}</p>
                  <div>
                    <a className="btn" href={href(env, `/book/${b.id}`)}>
                      View Details<span className="sr">: {b.title}</span>
                    </a>
                  </div>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function BookPage(props: { env: PageEnv; detail: BookDetail; editHref?: string }) {
  const { env, detail } = props;
  const b = detail.book;
  const formats = [
    b.formatEbook && "eBook",
    b.formatPaperback && "Paperback",
    b.formatHardback && "Hardback",
    b.formatAudiobook && "Audiobook",
    b.formatKindleUnlimited && "Kindle Unlimited",
  ].filter(Boolean) as string[];
  const retailers = b.additionalStoresEnabled ? (detail.retailers ?? []).filter((r) => isHttp(r.url)) : [];
  const reviews = (detail.reviews ?? []).slice(0, 5);
  const blurb = cleanHtml(b.shortBlurb);
  const sample = b.audiobookEnabled && isHttp(b.audioSampleUrl) ? b.audioSampleUrl.trim() : null;
  const snippet = plainText(b.reviewSnippet);
  return (
    <div className="wrap">
      <nav className="crumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            <a href={href(env, "/")}>Home</a>
          </li>
          <li>{env.ctx.website.booksEnabled ? <a href={href(env, "/books")}>Books</a> : "Books"}</li>
          <li aria-current="page">{b.title}</li>
        </ol>
      </nav>
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
          {b.seriesName && (
            <p className="series">
              {b.seriesName}
              {b.orderInSeries ? ` #${b.orderInSeries}` : ""}
            </p>
          )}
          <p className="by">by {b.author}</p>
          {b.releaseDate && (
            <p className="meta">
              <span>
                Published <time dateTime={isoDate(b.releaseDate)}>{formatDate(b.releaseDate)}</time>
              </span>
            </p>
          )}
          {b.audiobookEnabled && b.narratorName && <p className="meta">Narrated by {b.narratorName}</p>}
          <Stars rating={b.userRating} show={b.showUserRating} />
          <Price minor={b.primaryPriceMinor} currency={b.primaryCurrency} />
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
            {isHttp(b.amazonUrl) && (
              <a className="btn" href={b.amazonUrl.trim()} rel="noopener noreferrer">
                <ShoppingCart aria-hidden="true" /> Buy From Amazon
              </a>
            )}
            {sample && (
              <a className="btn ghost" href={sample} rel="noopener noreferrer">
                <Headphones aria-hidden="true" /> Listen to Sample
              </a>
            )}
            {retailers.length > 0 && (
              <details className="drop">
                <summary className="btn ghost">
                  Alternative Retailers <span aria-hidden="true">▾</span>
                </summary>
                <ul>
                  {retailers.map((r) => (
                    <li key={r.url}>
                      <a href={r.url.trim()} rel="noopener noreferrer">
                        {r.name}
                      </a>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
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
                    {r.reviewDate && <time dateTime={isoDate(r.reviewDate)}>{formatDate(r.reviewDate)}</time>}
                  </figcaption>
                </figure>
              ))}
            </section>
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

const DEFAULT_JOURNEY = [
  {
    year: "The beginning",
    title: "A love of stories",
    description: "It started with reading everything I could find.",
  },
  {
    year: "First words",
    title: "Writing seriously",
    description: "Notebooks filled up, and the first manuscript took shape.",
  },
  { year: "Today", title: "Sharing my books", description: "Now I write for readers like you, one story at a time." },
];

export function AboutPage(props: { env: PageEnv }) {
  const { env } = props;
  const p = env.ctx.profile;
  const stored = Array.isArray(p.writingJourney)
    ? p.writingJourney.filter((j) => j && (j.title?.trim() || j.description?.trim() || j.year?.trim()))
    : [];
  const journey = stored.length ? stored : DEFAULT_JOURNEY;
  const bio = cleanHtml(p.bio);
  return (
    <div className="wrap">
      <div className="about">
        <div className="photo">
          {p.authorPhotoUrl ? (
            <img src={p.authorPhotoUrl} alt={`Portrait of ${p.name}`} width={288} height={360} fetchPriority="high" />
          ) : (
            <div className="avatar" aria-hidden="true">
              {p.name
                .split(/\s+/)
                .map((x) => x[0] ?? "")
                .join("")
                .slice(0, 2)
                .toUpperCase()}
            </div>
          )}
        </div>
        <div>
          <h1>About {p.name}</h1>
          {p.tagline && <p className="tag">{p.tagline}</p>}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: bio }} />
        </div>
      </div>
      <section aria-labelledby="journey">
        <h2 id="journey" className="section-title">
          My Writing Journey
        </h2>
        <ol className="journey">
          {journey.map((j, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the author's own order, entries may repeat
            <li className="card" key={i}>
              <p className="year">{j.year}</p>
              <h3>{j.title}</h3>
              <p>{j.description}</p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

export const CATEGORIES = [
  { key: "", label: "All Posts" },
  { key: "news", label: "News" },
  { key: "books", label: "Books" },
  { key: "events", label: "Events" },
  { key: "thoughts", label: "Thoughts" },
];

/** What an empty list says, per filter. */
const EMPTY_BLOG: Record<string, [string, string]> = {
  "": ["No posts yet", "Check back soon for updates."],
  news: ["No news yet", "News and announcements will appear here."],
  books: ["No book posts yet", "Posts about my books will appear here."],
  events: ["No events yet", "Upcoming signings, talks and launches will appear here."],
  thoughts: ["No thoughts yet", "Musings on writing and reading will appear here."],
};

export function blogTitles(ctx: SiteContext) {
  return {
    title: ctx.customization?.blogPageTitle?.trim() || "Blog",
    description:
      ctx.customization?.blogPageDescription?.trim() ||
      "Stay updated with my latest posts, book releases, events, and thoughts on writing.",
  };
}

export function BlogPage(props: { env: PageEnv; posts: PostView[]; category: string }) {
  const { env, category } = props;
  const posts = category ? props.posts.filter((p) => p.category === category) : props.posts;
  const t = blogTitles(env.ctx);
  const [emptyTitle, emptyText] = EMPTY_BLOG[category] ?? ["No posts yet", "Check back soon for updates."];
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>{t.title}</h1>
        <p>{t.description}</p>
      </div>
      <nav className="filters" aria-label="Categories">
        <ul>
          {CATEGORIES.map((c) => (
            <li key={c.key || "all"}>
              <a
                href={href(env, c.key ? `/blog?category=${c.key}` : "/blog")}
                aria-current={c.key === category ? "page" : undefined}
              >
                {c.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="posts">
        {posts.length === 0 ? (
          <div className="empty">
            <h2>{emptyTitle}</h2>
            <p>{emptyText}</p>
          </div>
        ) : (
          posts.map((p) => {
            const text = plainText(p.content);
            const long = text.length > 100;
            const html = cleanHtml(p.content);
            return (
              <article className="post" key={p.id} id={`post-${p.id}`} aria-labelledby={`t-${p.id}`}>
                <p className="meta">
                  <span className="badge">{CATEGORIES.find((c) => c.key === p.category)?.label ?? p.category}</span>
                  <time dateTime={p.createdAt.toISOString()}>{formatDate(p.createdAt)}</time>
                </p>
                <h2 id={`t-${p.id}`}>{p.title}</h2>
                {long ? (
                  <div className="wrapd">
                    <details>
                      <summary>
                        <span className="more">Read More...</span>
                        <span className="less">Show Less</span>
                      </summary>
                      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
                      <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
                    </details>
                    <p className="preview">{cut(text, 100)}</p>
                  </div>
                ) : (
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts
                  <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
                )}
              </article>
            );
          })
        )}
      </div>
    </div>
  );
}

function DemoNote(props: { env: PageEnv }) {
  if (props.env.mode !== "demo") return null;
  return <p className="note">This is the read-only demo: its forms are disabled.</p>;
}

export function NewsletterPage(props: { env: PageEnv; done?: boolean; error?: string }) {
  const { env } = props;
  const embed = env.ctx.customization?.newsletterEmbedCode?.trim();
  const disabled = env.mode === "demo";
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Newsletter</h1>
        <p>Subscribe to get the latest updates and exclusive content.</p>
      </div>
      <div className="narrow">
        {props.done ? (
          <p className="notice" role="status">
            Thank you for subscribing! You'll hear from me soon.
          </p>
        ) : embed ? (
          <iframe
            className="embed"
            title="Newsletter sign-up"
            src={href(env, "/newsletter/embed")}
            sandbox="allow-scripts allow-forms allow-popups"
            loading="lazy"
          />
        ) : (
          <div className="panel">
            <h2 className="panel-title">Join the mailing list</h2>
            <p className="hint">New releases, exclusive extras and news from my writing desk. No spam, ever.</p>
            {props.error && (
              <p className="error" role="alert" id="nl-error">
                {props.error}
              </p>
            )}
            <DemoNote env={env} />
            <form className="inline" method="post" action={href(env, "/newsletter")}>
              <label htmlFor="nl-email" className="sr">
                Email address
              </label>
              <input
                id="nl-email"
                type="email"
                name="email"
                required
                maxLength={320}
                autoComplete="email"
                placeholder="you@example.com"
                disabled={disabled}
                aria-describedby={props.error ? "nl-error" : undefined}
                aria-invalid={props.error ? true : undefined}
              />
              <button className="btn" type="submit" disabled={disabled}>
                Subscribe
              </button>
            </form>
          </div>
        )}
      </div>
    </div>
  );
}

export function ContactPage(props: { env: PageEnv; done?: boolean; error?: string }) {
  const { env } = props;
  const c = env.ctx.contact;
  const email = c?.contactEmail?.trim() || "";
  const disabled = env.mode === "demo";
  const formOn = c?.enableContactForm ?? true;
  const hasLinks = publicSocialLinks(env.ctx).length > 0;
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Contact</h1>
        <p>I love hearing from readers. Send me a message and I'll get back to you.</p>
      </div>
      <div className="two">
        <div className="panel">
          {props.done ? (
            <p className="notice" role="status">
              Thank you for your message! I'll get back to you soon.
            </p>
          ) : formOn ? (
            <>
              <h2 className="panel-title">Send a message</h2>
              {props.error && (
                <p className="error" role="alert">
                  {props.error}
                </p>
              )}
              <DemoNote env={env} />
              <form className="stack" method="post" action={href(env, "/contact")}>
                <div className="pair">
                  <label>
                    Name
                    <input name="name" required maxLength={200} autoComplete="name" disabled={disabled} />
                  </label>
                  <label>
                    Email
                    <input
                      type="email"
                      name="email"
                      required
                      maxLength={320}
                      autoComplete="email"
                      disabled={disabled}
                    />
                  </label>
                </div>
                <label>
                  Subject
                  <input name="subject" required maxLength={300} disabled={disabled} />
                </label>
                <label>
                  Message
                  <textarea name="message" rows={6} required maxLength={5000} disabled={disabled} />
                </label>
                <div className="hp" aria-hidden="true">
                  <label>
                    Leave this empty
                    <input name="website" tabIndex={-1} autoComplete="off" />
                  </label>
                </div>
                <div>
                  <button className="btn" type="submit" disabled={disabled}>
                    Send Message
                  </button>
                </div>
              </form>
            </>
          ) : (
            <p>The contact form is not available right now.</p>
          )}
        </div>
        {(email || hasLinks) && (
          <aside className="panel" aria-labelledby="get-in-touch">
            <h2 className="panel-title" id="get-in-touch">
              Get in touch
            </h2>
            {email && (
              <details className="mask">
                <summary>
                  <Mail aria-hidden="true" />
                  <span className="masked">{maskEmail(email)}</span>
                  <span className="tog">
                    <span className="show">Show</span>
                    <span className="hide">Hide</span>
                    <span className="sr"> email address</span>
                  </span>
                </summary>
                <a href={`mailto:${email}`}>{email}</a>
              </details>
            )}
            <SocialLinks ctx={env.ctx} className="social" />
          </aside>
        )}
      </div>
    </div>
  );
}

export function PrivacyPage(props: { env: PageEnv }) {
  const legal = props.env.ctx.legal;
  const html = legal?.isEnabled ? cleanHtml(legal.content) : "";
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Privacy &amp; Legal</h1>
      </div>
      <div className="content">
        {html ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts
          <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <p className="prose muted">No privacy and legal information has been configured yet.</p>
        )}
      </div>
    </div>
  );
}

export function MessagePage(props: { title: string; text: string; env?: PageEnv }) {
  return (
    <div className="wrap">
      <div className="empty big">
        <h1>{props.title}</h1>
        <p>{props.text}</p>
        {props.env && (
          <p>
            <a className="btn" href={href(props.env, "/")}>
              Back to home
            </a>
          </p>
        )}
      </div>
    </div>
  );
}
