// Small pieces several pages share: covers, stars, prices and the demo note.
import type { ImageVariants } from "../../db/schema/books.ts";
import { daysUntil } from "../../server/modules/books/launches.service.ts";
import { formatDate } from "../../shared/dates.ts";
import { CURRENCIES, type Currency } from "../../shared/enums.ts";
import { CURRENCY_SYMBOLS } from "../../shared/plans.ts";
import { href, type PageEnv } from "./layout.tsx";

export function price(minor: number | null, currency: string): string | null {
  if (minor === null || minor === undefined) return null;
  const symbol = (CURRENCIES as readonly string[]).includes(currency)
    ? CURRENCY_SYMBOLS[currency as Currency]
    : currency === "INR"
      ? "₹"
      : "";
  return `${symbol}${(minor / 100).toFixed(2)}`;
}

export const isoDate = (d: string | Date) => (typeof d === "string" ? d.slice(0, 10) : d.toISOString());

/** A book whose release date is still to come: a pre-order, not a published work. */
export const isPreorder = (releaseDate: string | null, now: Date) => (daysUntil(releaseDate, now) ?? 0) > 0;

/** A book's date in lists: "Out on 2 January 2027" for a pre-order, else the day it came out. */
export function ReleaseDate(props: { date: string | null; now: Date }) {
  const { date, now } = props;
  if (!date) return null;
  const time = <time dateTime={isoDate(date)}>{formatDate(date, "long")}</time>;
  return isPreorder(date, now) ? <span className="preorder">Out on {time}</span> : time;
}

/** The spec's rule: short local parts stay, longer ones keep first and last with at least three stars. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return email;
  const local = email.slice(0, at);
  if (local.length <= 2) return email;
  return `${local[0]}${"*".repeat(Math.max(3, local.length - 2))}${local.at(-1)}${email.slice(at)}`;
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

export function Price(props: { minor: number | null; currency: string }) {
  const p = price(props.minor, props.currency);
  if (!p) return null;
  return (
    <p className="price">
      <small>Prices From</small> {p}
    </p>
  );
}

export function DemoNote(props: { env: PageEnv }) {
  if (!props.env.readOnly) return null;
  return <p className="note">This is the read-only demo: its forms are disabled.</p>;
}

/** A breadcrumb step: a page of the site (a path) or, last, the page itself (no path). */
export type Crumb = { name: string; path?: string };

/** The visible breadcrumb; the page's BreadcrumbList JSON-LD is built from the same steps. */
export function Crumbs(props: { env: PageEnv; items: Crumb[] }) {
  return (
    <nav className="crumbs" aria-label="Breadcrumb">
      <ol>
        {props.items.map((c) =>
          c.path === undefined ? (
            <li key={c.name} aria-current="page">
              {c.name}
            </li>
          ) : (
            <li key={c.path}>
              <a href={href(props.env, c.path)}>{c.name}</a>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

/** A one-line e-mail form's address box, with its hidden label; `error` is said by the element `errorId`. */
export function EmailInput(props: { id: string; errorId: string; error: string | undefined; disabled: boolean }) {
  return (
    <>
      <label htmlFor={props.id} className="sr">
        Email address
      </label>
      <input
        id={props.id}
        type="email"
        name="email"
        required
        maxLength={320}
        autoComplete="email"
        placeholder="you@example.com"
        disabled={props.disabled}
        aria-describedby={props.error ? props.errorId : undefined}
        aria-invalid={props.error ? true : undefined}
      />
    </>
  );
}
