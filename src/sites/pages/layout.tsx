// The pages of a public author site, as plain server-rendered React (no client code). Everything
// works with JavaScript off: filters are links, Read More and the email reveal are <details>,
// forms post, and the cookie banner's Close is a checkbox the stylesheet reacts to.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { type SiteContext, sectionShown } from "../../server/modules/sites/sites.service.ts";
import {
  AtSign,
  Book,
  Bookmark,
  BookOpen,
  Camera,
  Cloud,
  Feather,
  FileText,
  Globe,
  Home,
  Library,
  Mail,
  MenuIcon,
  Music,
  Newspaper,
  Pen,
  PenTool,
  Play,
  type StaticIcon,
  User,
  Users,
} from "../icons.tsx";
import { memoBy } from "../memo.ts";

export type SiteMode = "tenant" | "preview" | "demo";

/** What every page knows about the request. */
export type PageEnv = {
  ctx: SiteContext;
  /** The site's own origin (its subdomain or verified domain), where author-provided HTML lives. */
  origin: string;
  base: string;
  mode: SiteMode;
  /** The demo author's site, wherever it is shown (/demo, its own host, a preview): no form takes input. */
  readOnly: boolean;
  path: string;
  showCookieBanner: boolean;
  year: number;
  /** When the page is rendered: a pre-order's countdown reads it (the page expires at midnight). */
  now: Date;
  /** Where readers fetch uploaded files from, when not this host's /uploads (a CDN, ADR 030). */
  uploadsBase: string | null;
};

const ICONS = { BookOpen, Book, Library, Bookmark, PenTool, Feather, Pen, FileText, Mail, Newspaper, User, Home };

export const href = (env: PageEnv, p: string) => (p === "/" ? env.base || "/" : `${env.base}${p}`);
export const siteName = (ctx: SiteContext) => ctx.website.websiteName?.trim() || "Author Site";

export const isHttp = (u: string | null | undefined): u is string => !!u && /^https?:\/\/[^\s]+$/i.test(u.trim());

function navItems(ctx: SiteContext) {
  const w = ctx.website;
  return [
    { path: "/", label: "Home", on: true },
    // Empty sections wait until they have something in them (ADR 052).
    { path: "/books", label: "Books", on: sectionShown(ctx, "books") },
    { path: "/about", label: "About", on: sectionShown(ctx, "about") },
    { path: "/blog", label: "Blog", on: sectionShown(ctx, "blog") },
    { path: "/newsletter", label: "Newsletter", on: sectionShown(ctx, "newsletter") },
    { path: "/contact", label: "Contact", on: w.contactEnabled },
  ].filter((i) => i.on);
}

/** The Privacy & Legal page is on unless the author switched it off (no row yet: on). */
export const privacyShown = (ctx: SiteContext) => ctx.legal?.isEnabled ?? true;

const PLATFORMS: Record<string, { label: string; Icon: StaticIcon }> = {
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

export function SocialLinks(props: { ctx: SiteContext; className: string }) {
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

/** The cookie banner's buttons: the same on every page of every site, rendered by React once. */
const CONSENT_BUTTONS = renderToStaticMarkup(
  <>
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
  </>,
);

/**
 * The header's and the footer's markup, which change only with the site's context, the address
 * base, the page's section and the year: rendered once per distinct set of those (the key holds
 * all of them) rather than on every page render.
 */
const kept = memoBy(
  (part: { key: string; render: () => ReactNode }) => part.key,
  (part) => renderToStaticMarkup(part.render()),
);

export function Layout(props: { env: PageEnv; children: ReactNode }) {
  const { env } = props;
  const Icon = ICONS[env.ctx.website.logoIcon as keyof typeof ICONS] ?? BookOpen;
  const current = env.path === "/" ? "/" : `/${env.path.split("/")[1]}`;
  const nav = navItems(env.ctx);
  const name = siteName(env.ctx);
  const tagline = env.ctx.website.tagline || env.ctx.profile.tagline;
  const social = publicSocialLinks(env.ctx);
  const privacy = privacyShown(env.ctx);
  const navKey = nav.map((i) => [i.path, i.label]);
  const menuItems = () =>
    nav.map((i) => (
      <li key={i.path}>
        <a href={href(env, i.path)} aria-current={current === i.path ? "page" : undefined}>
          {i.label}
        </a>
      </li>
    ));
  const header = kept({
    key: JSON.stringify(["h", env.ctx.website.logoIcon, name, navKey, env.base, current]),
    render: () => (
      <>
        <a className="brand" href={href(env, "/")}>
          <Icon aria-hidden="true" />
          <span>{name}</span>
        </a>
        {/* Two renderings of one menu, one shown at a time by the stylesheet: a row on wide screens,
          and on a phone a <details> disclosure (no script) that keeps the header one line tall
          whatever the menu's length or the font. */}
        <nav className="main" aria-label="Main">
          <ul className="row">{menuItems()}</ul>
          <details className="fold">
            <summary>
              <MenuIcon aria-hidden="true" />
              <span>Menu</span>
            </summary>
            <ul>{menuItems()}</ul>
          </details>
        </nav>
      </>
    ),
  });
  const footer = kept({
    key: JSON.stringify([
      "f",
      name,
      tagline,
      social.map((l) => [l.platform, l.url]),
      navKey,
      privacy,
      env.base,
      env.year,
    ]),
    render: () => (
      <>
        <div className="wrap">
          <div className="fcol">
            <p className="fname">{name}</p>
            {tagline && <p className="ftag">{tagline}</p>}
            <SocialLinks ctx={env.ctx} className="fsocial" />
          </div>
          <nav aria-label="Footer">
            <ul>
              {nav.map((i) => (
                <li key={i.path}>
                  <a href={href(env, i.path)}>{i.label}</a>
                </li>
              ))}
              {privacy && (
                <li>
                  <a href={href(env, "/privacy")}>Privacy &amp; Legal</a>
                </li>
              )}
            </ul>
          </nav>
        </div>
        <div className="wrap fbase">
          <p>
            © {env.year} {name}. All rights reserved.
          </p>
          <p>Author website by Bookplate</p>
        </div>
      </>
    ),
  });
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
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by React above, escaped as any markup */}
        <div className="wrap" dangerouslySetInnerHTML={{ __html: header }} />
      </header>
      <main id="main">{props.children}</main>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by React above, escaped as any markup */}
      <footer className="site" dangerouslySetInnerHTML={{ __html: footer }} />
      {env.showCookieBanner && (
        <form id="cc" method="post" action={href(env, "/cookie-consent")} aria-label="Cookie consent">
          <input type="hidden" name="back" value={href(env, env.path)} />
          {/* Close only hides the banner for this page; it returns until a choice is stored. */}
          <input type="checkbox" id="ccx" className="sr" />
          <p>This site uses essential cookies only. Do you accept cookies?</p>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: React's own markup of constant elements (CONSENT_BUTTONS) */}
          <div className="ccb" dangerouslySetInnerHTML={{ __html: CONSENT_BUTTONS }} />
        </form>
      )}
    </>
  );
}
