// Per-site look: fonts and colours as CSS custom properties, plus the shared stylesheet.
// Colours the author picks are used as given for buttons and the hero; text derived from them
// (links, active nav, badges, footer links) is darkened or lightened just enough to stay readable
// (WCAG AA, 4.5:1) on the background it sits on.
import type { SiteContext } from "../server/modules/sites/sites.service.ts";
import { contrast, readable } from "../shared/colour-contrast.ts";
import { FONT_FAMILIES } from "../shared/enums.ts";
import { memoBy } from "./memo.ts";

const FONT_NAMES: Record<string, [string, "serif" | "sans-serif"]> = {
  inter: ["Inter", "sans-serif"],
  "open-sans": ["Open Sans", "sans-serif"],
  roboto: ["Roboto", "sans-serif"],
  lato: ["Lato", "sans-serif"],
  "source-sans-pro": ["Source Sans Pro", "sans-serif"],
  poppins: ["Poppins", "sans-serif"],
  merriweather: ["Merriweather", "serif"],
  "playfair-display": ["Playfair Display", "serif"],
  "crimson-text": ["Crimson Text", "serif"],
};

export function isFontFile(family: string, weight: string): boolean {
  return (FONT_FAMILIES as readonly string[]).includes(family) && (weight === "400" || weight === "700");
}

/** The font family a site uses (the theme's default is Merriweather). */
function fontOf(ctx: SiteContext): string {
  const f = ctx.customization?.fontFamily;
  return f && FONT_NAMES[f] ? f : "merriweather";
}

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const color = (v: string | null | undefined, d: string) => (v && COLOR.test(v) ? v.toLowerCase() : d);

const PAGE_BG = "#fafaf9";

/** Only the website fields in THEME_FIELDS reach the stylesheet, so the memo key is complete. */
function pickTheme(w: SiteContext["website"]) {
  return Object.fromEntries(THEME_FIELDS.map((f) => [f, w[f]])) as Pick<
    SiteContext["website"],
    (typeof THEME_FIELDS)[number]
  >;
}

/**
 * A site's stylesheet, built once per look (every uncached page render asks for it). The key is
 * everything the stylesheet is made of: the font and the website's and customization's colours.
 */
export const themeCss: (ctx: SiteContext) => string = memoBy((ctx) => themeKey(ctx), buildThemeCss);

/** Everything a site's stylesheet is made of, as one string: equal keys, equal stylesheets. */
export const themeKey = (ctx: SiteContext) =>
  JSON.stringify([fontOf(ctx), ctx.customization, ...THEME_FIELDS.map((f) => ctx.website[f])]);

const THEME_FIELDS = [
  "headerBackgroundColor",
  "footerBackgroundColor",
  "iconColor",
  "headerSize",
  "heroTextColor",
  "heroButtonColor",
  "heroButtonTextColor",
  "heroButtonSecondaryColor",
  "heroButtonSecondaryTextColor",
] as const satisfies readonly (keyof SiteContext["website"])[];

/** Whether light text reads better than dark text on `bg`. */
const isDark = (bg: string) => contrast("#ffffff", bg) > contrast("#111827", bg);

function buildThemeCss(ctx: SiteContext): string {
  const w = pickTheme(ctx.website);
  const cz = ctx.customization;
  const family = fontOf(ctx);
  const [name, fallback] = FONT_NAMES[family] ?? ["Merriweather", "serif"];
  // optional, with both files preloaded: the font is used if it arrives in the first moments,
  // else the fallback stays for this page view. A late swap re-wrapped the menu and headings and
  // pushed the page down (CLS 0.43 on a book page); the next page finds the font cached.
  const faces = ["400", "700"]
    .map(
      (wt) =>
        `@font-face{font-family:"${name}";font-style:normal;font-weight:${wt};font-display:optional;src:url(/_fonts/${family}-${wt}.woff2) format("woff2")}`,
    )
    .join("");
  const accent = color(cz?.accentColor, "#6366f1");
  const headerBg = color(w.headerBackgroundColor, "#ffffff");
  const footerBg = color(w.footerBackgroundColor, "#1f2937");
  const icon = color(w.iconColor, "#6366f1");
  // Dark text on a light background, light text on a dark one: nudging the default dark text
  // just past 4.5:1 on navy left the site name a muted grey.
  const headerDark = isDark(headerBg);
  const headerText = headerDark ? readable("#ffffff", headerBg) : readable("#111827", headerBg);
  const footerText = isDark(footerBg) ? readable("#e7e5e4", footerBg) : readable("#1c1917", footerBg);
  // The dashboard's rule: footer links in the accent, else the icon colour — when they can be read.
  const footerLink = [accent, icon, "#6366f1"].find((c) => contrast(c, footerBg) >= 4.5) ?? footerText;
  const vars = {
    "--font": `"${name}",${fallback}`,
    "--accent": accent,
    "--accent-text": readable(accent, PAGE_BG),
    "--accent-ink": readable(accent, "#ffffff"),
    "--btn": color(cz?.buttonColor, "#2563eb"),
    "--btn-text": color(cz?.buttonTextColor, "#ffffff"),
    "--btn-hover": color(cz?.buttonHoverColor, "#1d4ed8"),
    "--btn-hover-text": color(cz?.buttonHoverTextColor, "#ffffff"),
    "--icon": icon,
    "--header-size": `${Math.min(3, Math.max(1, Number(w.headerSize) || 1.5))}rem`,
    "--header-bg": headerBg,
    "--header-text": headerText,
    "--header-muted": readable(headerDark ? "#e7e5e4" : "#44403c", headerBg),
    "--nav-active": readable(accent, headerBg),
    "--footer-bg": footerBg,
    "--footer-text": footerText,
    "--footer-muted": readable(contrast("#a8a29e", footerBg) > 3 ? "#a8a29e" : footerText, footerBg),
    "--footer-link": footerLink,
    "--hero-text": color(w.heroTextColor, "#ffffff"),
    "--hero-btn": color(w.heroButtonColor, "#2563eb"),
    "--hero-btn-text": color(w.heroButtonTextColor, "#ffffff"),
    "--hero-btn2": color(w.heroButtonSecondaryColor, "#ffffff"),
    "--hero-btn2-text": color(w.heroButtonSecondaryTextColor, "#000000"),
  };
  const root = `:root{${Object.entries(vars)
    .map(([k, v]) => `${k}:${v}`)
    .join(";")}}`;
  return faces + root + BASE_CSS;
}

const BASE_CSS = `*,*::before,*::after{box-sizing:border-box}html{-webkit-text-size-adjust:100%;scroll-padding-top:5rem}body{margin:0;font-family:var(--font);color:#292524;background:${PAGE_BG};line-height:1.65;display:flex;flex-direction:column;min-height:100vh;-webkit-font-smoothing:antialiased;overflow-wrap:break-word}main{flex:1}a{color:var(--accent-text)}img{max-width:100%;height:auto}h1,h2,h3{line-height:1.2;color:#1c1917;text-wrap:balance;overflow-wrap:break-word}p{text-wrap:pretty}ul,ol{padding:0}
.wrap{max-width:72rem;margin:0 auto;padding-left:1.25rem;padding-right:1.25rem}
.sr{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.skip{position:absolute;left:1rem;top:-4rem;z-index:50;background:#1c1917;color:#fff;padding:.6rem 1rem;border-radius:.5rem}.skip:focus{top:1rem}
:focus-visible{outline:3px solid var(--accent-text);outline-offset:2px}
.demo{background:#6d28d9;color:#fff;font-family:system-ui,sans-serif;font-size:.9rem}.demo .wrap{display:flex;gap:1rem;align-items:center;justify-content:space-between;padding-top:.55rem;padding-bottom:.55rem}.demo p{margin:0}.demo a{color:#fff;font-weight:600;border:1px solid #ffffffb3;border-radius:.4rem;padding:.25rem .8rem;text-decoration:none;white-space:nowrap}.demo a:hover{background:#ffffff26}
header.site{background:var(--header-bg);border-bottom:1px solid #0000001a;position:sticky;top:0;z-index:10}header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1.5rem;min-height:4.25rem;padding-top:.6rem;padding-bottom:.6rem}
.brand{display:flex;align-items:center;gap:.55rem;text-decoration:none;color:var(--header-text);font-weight:700;font-size:var(--header-size);letter-spacing:-.01em}.brand svg{color:var(--icon);width:1.1em;height:1.1em;flex:none}
nav.main ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;margin:0}nav.main a{display:inline-block;color:var(--header-muted);text-decoration:none;font-size:.95rem;padding:.35rem 0;border-bottom:2px solid transparent}nav.main a:hover{color:var(--nav-active)}nav.main a[aria-current=page]{color:var(--nav-active);border-bottom-color:currentColor;font-weight:700}
nav.main .fold{display:none}nav.main summary{list-style:none;display:inline-flex;align-items:center;gap:.4rem;min-height:2.75rem;padding:.4rem .85rem;border:1px solid currentColor;border-radius:.55rem;color:var(--header-text);font-size:.95rem;font-weight:700;cursor:pointer}nav.main summary::-webkit-details-marker{display:none}nav.main summary svg{width:1.2em;height:1.2em}nav.main .fold ul{position:absolute;left:0;right:0;top:100%;z-index:20;flex-direction:column;gap:0;margin:0;padding:.25rem 1.25rem .75rem;background:var(--header-bg);border-bottom:1px solid #0000001a;box-shadow:0 16px 24px -16px #00000059}nav.main .fold a{display:block;padding:.7rem 0}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:.45rem;min-height:2.75rem;background:var(--btn);color:var(--btn-text);border:1px solid transparent;border-radius:.55rem;padding:.6rem 1.3rem;font:inherit;font-size:.95rem;font-weight:700;line-height:1.2;text-decoration:none;cursor:pointer;transition:background-color .15s,color .15s}.btn:hover{background:var(--btn-hover);color:var(--btn-hover-text)}.btn.ghost{background:#fff;color:var(--accent-text);border-color:currentColor}.btn.ghost:hover{background:var(--accent-ink);border-color:var(--accent-ink);color:#fff}.btn[disabled],button[disabled]{opacity:.55;cursor:not-allowed}.btn svg{width:1.1em;height:1.1em;flex:none}
.actions{display:flex;gap:.9rem;justify-content:center;flex-wrap:wrap;align-items:center}.actions.start{justify-content:flex-start}
.hero{min-height:min(calc(100vh - 4.25rem),46rem);display:flex;align-items:center;justify-content:center;text-align:center;color:var(--hero-text);background:#1e1b4b radial-gradient(ellipse at 50% 0%,#3730a3 0%,#1e1b4b 45%,#0c0a09 100%) center/cover no-repeat;position:relative;isolation:isolate}.hero::before{content:"";position:absolute;inset:0;z-index:-1;background:linear-gradient(#00000040,#0000008c)}.hero>div{padding:4rem 1.25rem;max-width:48rem}.hero h1{color:var(--hero-text);font-size:clamp(2.5rem,8vw,4.75rem);margin:0 0 1rem;letter-spacing:-.02em}.hero p{font-size:clamp(1.1rem,3vw,1.35rem);margin:0 0 2.25rem}.hero .b1{background:var(--hero-btn);color:var(--hero-btn-text)}.hero .b2{background:var(--hero-btn2);color:var(--hero-btn2-text)}.hero .btn{min-width:9rem;box-shadow:0 10px 24px -10px #000c}.hero .btn:hover{filter:brightness(1.08)}
.intro{text-align:center;padding:5.5rem 0 4rem;background:linear-gradient(180deg,#fff,${PAGE_BG});border-bottom:1px solid #e7e5e4}.intro h1{font-size:clamp(2.4rem,7vw,4rem);margin:0 0 .75rem;letter-spacing:-.02em}.intro p.tag{font-size:clamp(1.1rem,3vw,1.3rem);color:#57534e;margin:0 auto 2.25rem;max-width:38rem}.intro .b2{background:#fff;color:var(--accent-text);border-color:currentColor}.intro .b2:hover{background:var(--accent-ink);color:#fff;border-color:var(--accent-ink)}.intro.left{text-align:left}.intro.left p.tag{margin-left:0}.intro.left .actions{justify-content:flex-start}
.prose{max-width:44rem;margin:0 auto;font-size:1.075rem}.prose img{border-radius:.5rem}.prose a{text-decoration-thickness:1px;text-underline-offset:2px}.prose blockquote{margin:1.25rem 0;padding-left:1rem;border-left:3px solid var(--accent);color:#44403c}.content{padding-top:3rem;padding-bottom:4rem}.muted{color:#57534e}
.spot{background:#fff;border-top:1px solid #e7e5e4;border-bottom:1px solid #e7e5e4;padding:4rem 0}.spot .wrap{display:grid;grid-template-columns:16rem 1fr;gap:3rem;align-items:center;max-width:60rem}.spot-cover img{width:16rem;border-radius:.35rem;box-shadow:0 24px 48px -16px #0000008c}.spot h2{font-size:clamp(1.7rem,4vw,2.3rem);margin:.2rem 0 .3rem}.spot .sub{color:#57534e;font-style:italic;margin:0 0 .5rem}.spot .blurb{color:#44403c;font-size:1.05rem;margin:.75rem 0 1.5rem}.eyebrow{margin:0;text-transform:uppercase;letter-spacing:.12em;font-size:.75rem;font-weight:700;color:var(--accent-text);font-family:system-ui,sans-serif}.more{display:inline-flex;align-items:center;gap:.35rem;font-weight:700;text-decoration:none}.shelf{padding-top:3.5rem;padding-bottom:4rem;max-width:60rem}.shelf-head{display:flex;align-items:baseline;justify-content:space-between;gap:1rem;flex-wrap:wrap;margin-bottom:1.5rem}.shelf-head h2{margin:0;font-size:1.6rem}.shelf ul{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:2rem 1.5rem}.shelf li a{display:flex;flex-direction:column;gap:.6rem;text-decoration:none;color:inherit}.shelf li img,.shelf li .nocover{width:100%;height:auto;aspect-ratio:2/3;object-fit:cover;border-radius:.3rem;box-shadow:0 12px 24px -12px #0000008c}.shelf li a:hover .t{text-decoration:underline}.shelf .t{font-weight:700;line-height:1.3}.shelf .s{display:block;color:#57534e;font-size:.9rem;font-style:italic;margin-top:.2rem}.more:hover{text-decoration:underline}.more svg{width:1em;height:1em}
.page-head{text-align:center;padding:3.5rem 0 1.25rem}.page-head h1{font-size:clamp(2.1rem,5vw,2.9rem);margin:0 0 .6rem;letter-spacing:-.015em}.page-head p{color:#57534e;margin:0 auto;max-width:40rem;font-size:1.05rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(16.5rem,1fr));gap:2rem;padding:2rem 0 4.5rem;margin:0;list-style:none}
.card{background:#fff;border:1px solid #e7e5e4;border-radius:1rem;overflow:hidden;display:flex;flex-direction:column;height:100%;box-shadow:0 1px 2px #0000000d;transition:box-shadow .2s,transform .2s}.grid .card:hover{box-shadow:0 18px 36px -16px #00000059;transform:translateY(-3px)}.card .cover{position:relative;background:linear-gradient(160deg,#f5f5f4,#e7e5e4);display:flex;justify-content:center;padding:1.75rem 1.5rem}.card .cover img{height:16rem;width:auto;aspect-ratio:2/3;object-fit:cover;border-radius:.25rem;box-shadow:0 14px 28px -10px #0000008c}.card .body{padding:1.35rem 1.4rem 1.5rem;display:flex;flex-direction:column;gap:.45rem;flex:1}.card h2{font-size:1.25rem;margin:0}.card .sub{color:#57534e;margin:0;font-style:italic}.card .blurb{color:#44403c;font-size:.95rem;margin:.3rem 0 1rem;flex:1}.card .price{margin:0}
.meta{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem .9rem;color:#57534e;font-size:.875rem;margin:0}
.nocover{width:10.7rem;height:16rem;border-radius:.25rem;background:linear-gradient(135deg,var(--accent),#1c1917)}
.badges{position:absolute;top:.8rem;left:.8rem;display:flex;flex-direction:column;gap:.35rem;align-items:flex-start}.badge{display:inline-block;font-family:system-ui,sans-serif;font-size:.75rem;font-weight:700;letter-spacing:.02em;padding:.22rem .6rem;border-radius:999px;background:#f5f5f4;color:#44403c;border:1px solid #e7e5e4}.badge.feat{background:var(--accent-ink);border-color:var(--accent-ink);color:#fff}.badge.promo{background:#b91c1c;border-color:#b91c1c;color:#fff}.badge.best{background:#fbbf24;border-color:#fbbf24;color:#1c1917}.badge.fmt{background:#fff;color:#1c1917}
.price{font-weight:700;color:#1c1917;font-size:1.15rem;margin:.4rem 0}.price small{font-weight:400;color:#57534e;font-size:.8rem;margin-right:.15rem}
.stars{display:inline-flex;align-items:center;gap:.4rem;color:#b45309;letter-spacing:.08em;font-size:1rem;line-height:1}.stars .off{color:#d6d3d1}.stars .half{background:linear-gradient(90deg,#b45309 50%,#d6d3d1 50%);-webkit-background-clip:text;background-clip:text;color:transparent}.stars .num{color:#57534e;letter-spacing:0;font-size:.85rem}
.empty{text-align:center;padding:4rem 1rem 5rem;color:#57534e}.empty h2{margin:0 0 .5rem}.empty.big{padding:6rem 1rem}.empty.big h1{font-size:clamp(2rem,5vw,2.75rem);margin:0 0 .75rem}
.crumbs{font-size:.9rem;color:#57534e;padding:1.75rem 0 0}.crumbs ol{list-style:none;margin:0;display:flex;flex-wrap:wrap;gap:.4rem}.crumbs li+li::before{content:"›";margin-right:.4rem;color:#a8a29e}.crumbs a{color:#44403c;text-underline-offset:2px}.crumbs a:hover{color:var(--accent-text)}
.book{display:grid;grid-template-columns:minmax(0,20rem) 1fr;gap:3.5rem;padding:2rem 0 4.5rem;align-items:start}.book .cover{position:sticky;top:6rem}.book .cover img{max-height:400px;width:auto;border-radius:.35rem;box-shadow:0 24px 48px -16px #0000008c}.book h1{font-size:clamp(2rem,5vw,2.9rem);margin:0;letter-spacing:-.015em}.book .sub{font-size:1.2rem;color:#57534e;font-style:italic;margin:.35rem 0 0}.book .series{color:var(--accent-text);font-weight:700;margin:.6rem 0 0}.book .by{color:#44403c;margin:.3rem 0 .3rem;font-size:1.05rem}.book .meta{margin:.2rem 0}.book .stars{margin:.6rem 0 .2rem}.book .row{display:flex;flex-wrap:wrap;gap:.45rem;margin:1rem 0;list-style:none}.buy{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.5rem 0;align-items:flex-start}
details.drop{position:relative}details.drop summary{list-style:none}details.drop summary::-webkit-details-marker{display:none}details.drop ul{position:absolute;z-index:5;margin:.4rem 0 0;padding:.4rem;list-style:none;background:#fff;border:1px solid #e7e5e4;border-radius:.6rem;min-width:15rem;box-shadow:0 18px 36px -12px #00000040}details.drop li a{display:block;padding:.55rem .75rem;color:#1c1917;text-decoration:none;border-radius:.4rem}details.drop li a:hover{background:#f5f5f4}details.drop .store-price{float:right;margin-left:1rem;color:#57534e}
.book .prose{margin:0;max-width:none}figure{margin:0}.feature{margin:1.75rem 0;padding:1.4rem 1.6rem;border-left:4px solid var(--accent);background:#fff;border-radius:0 .75rem .75rem 0;box-shadow:0 1px 2px #0000000d}.feature blockquote{margin:0;font-style:italic;font-size:1.15rem;color:#292524}.feature p{margin:0}
section.block{margin:2.75rem 0 0}section.block h2{font-size:1.45rem;border-bottom:1px solid #e7e5e4;padding-bottom:.6rem;margin:0 0 1.1rem}
.review{background:#fff;border:1px solid #e7e5e4;border-radius:.75rem;padding:1.1rem 1.3rem;margin:0 0 1rem}.review blockquote{margin:0 0 .6rem}.review p{margin:0}.review strong{color:#1c1917}
.fab{position:fixed;right:1.25rem;bottom:1.25rem;z-index:30;display:inline-flex;align-items:center;gap:.5rem;background:#1c1917;color:#fff;padding:.8rem 1.25rem;border-radius:999px;font-family:system-ui,sans-serif;font-weight:700;text-decoration:none;box-shadow:0 14px 30px -8px #000000a6}.fab:hover{background:#000}.fab svg{width:1.1em;height:1.1em}body:has(#cc) .fab{bottom:5rem}body:has(#ccx:checked) .fab{bottom:1.25rem}body:has(.fab) footer.site{padding-bottom:5.5rem}
.about{display:grid;grid-template-columns:17rem 1fr;gap:3.5rem;padding:3.5rem 0 3rem;align-items:start}.about img{display:block;border-radius:1rem;width:100%;height:auto;aspect-ratio:4/5;object-fit:cover;box-shadow:0 24px 48px -16px #0000008c}.about img.square{aspect-ratio:1}.about h1{margin:0;font-size:clamp(2.1rem,5vw,2.9rem);letter-spacing:-.015em}.about .avatar{aspect-ratio:1;border-radius:50%;display:flex;align-items:center;justify-content:center;font-size:4.5rem;font-weight:700;color:#fff;background:linear-gradient(135deg,var(--accent-ink),#1c1917);box-shadow:0 24px 48px -16px #0000008c}.about .prose,.post .prose{margin:0;max-width:none}.about .tag{color:var(--accent-text);font-size:1.2rem;margin:.4rem 0 1.5rem}.about .kicker{margin:0 0 .4rem;font-family:system-ui,sans-serif;font-size:.8rem;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:var(--accent-text)}
.section-title{font-size:1.6rem;margin:1rem 0 1.25rem}.journey{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1.25rem;margin:0 0 4.5rem;list-style:none}.journey .card{padding:1.5rem 1.6rem;border-top:4px solid var(--accent)}.journey .year{color:var(--accent-text);font-weight:700;font-size:1.4rem;margin:0}.journey h3{margin:.3rem 0 .4rem;font-size:1.15rem}.journey p{margin:0;color:#57534e}
.filters ul{display:flex;flex-wrap:wrap;gap:.5rem;justify-content:center;list-style:none;margin:0;padding:1rem 0 .5rem}.filters a{display:inline-block;padding:.45rem 1.1rem;border-radius:999px;border:1px solid #d6d3d1;color:#44403c;text-decoration:none;font-size:.92rem;background:#fff}.filters a:hover{border-color:var(--accent-text);color:var(--accent-text)}.filters a[aria-current=page]{background:var(--accent-ink);border-color:var(--accent-ink);color:#fff;font-weight:700}
.posts{max-width:46rem;margin:0 auto;padding:1.25rem 0 4.5rem;display:flex;flex-direction:column;gap:1.5rem}.post{background:#fff;border:1px solid #e7e5e4;border-radius:1rem;padding:1.6rem 1.8rem}.post h2{margin:.55rem 0 .6rem;font-size:1.45rem}.post .preview{margin:0}.post details summary{cursor:pointer;color:var(--accent-text);font-weight:700;list-style:none;margin-top:.6rem;display:inline-block}.post details summary:hover{text-decoration:underline}.post details summary::-webkit-details-marker{display:none}.post details .less{display:none}.post details[open] .less{display:inline}.post details[open] .more,.post details[open]+.preview{display:none}.post details[open] summary{margin:.8rem 0 0;order:1}.post details[open]{display:flex;flex-direction:column}.post .wrapd{display:flex;flex-direction:column-reverse}.post h2 a{color:inherit;text-decoration:none}.post h2 a:hover{color:var(--accent-text);text-decoration:underline}
.post-page{max-width:44rem;margin:0 auto;padding:2.5rem 0 4.5rem}.post-page h1{font-size:clamp(2rem,5vw,2.75rem);margin:.7rem 0 1.6rem;letter-spacing:-.015em;line-height:1.15}.post-page .prose{margin:0;max-width:none}.post-page .meta .badge{text-decoration:none}.back{margin:0 0 1.25rem;font-size:.95rem}.back a{display:inline-flex;align-items:center;gap:.35rem;color:var(--accent-text);font-weight:600;text-decoration:none}.back a:hover{text-decoration:underline}.back svg{width:1rem;height:1rem}.back.end{margin:2.5rem 0 0;padding-top:1.5rem;border-top:1px solid #e7e5e4}.updated{font-style:italic}
.archive{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:1.5rem}
.bookcard{display:flex;gap:1.25rem;align-items:center;margin:1.75rem 0;padding:1.1rem 1.25rem;background:#fff;border:1px solid #e7e5e4;border-radius:1rem;box-shadow:0 1px 2px #0000000d}.bookcard-cover{flex:none}.bookcard img,.bookcard .nocover{display:block;width:6.5rem;height:auto;border-radius:.3rem;box-shadow:0 10px 24px -10px #0000008c}.bookcard .nocover{height:9.75rem}.prose .bookcard-title{margin:0;font-weight:700;font-size:1.2rem;line-height:1.3}.prose .bookcard-sub{margin:.2rem 0 0;color:#57534e;font-style:italic}.prose .bookcard .btn{margin-top:.8rem;text-decoration:none}@media (max-width:480px){.bookcard{flex-direction:column;text-align:center}}
.two{display:grid;grid-template-columns:1.5fr 1fr;gap:2rem;padding:1.25rem 0 4.5rem;align-items:start}.narrow{max-width:36rem;margin:0 auto;padding:1.25rem 0 4.5rem}.panel{background:#fff;border:1px solid #e7e5e4;border-radius:1rem;padding:1.85rem;box-shadow:0 1px 2px #0000000d}.panel-title{margin:0 0 1rem;font-size:1.3rem}.hint{color:#57534e;margin:-.5rem 0 1.25rem}.note{color:#57534e;font-size:.9rem;font-style:italic}
form.stack{display:flex;flex-direction:column;gap:1.1rem}form.stack label{display:flex;flex-direction:column;gap:.4rem;font-size:.9rem;font-weight:700;color:#292524}.pair{display:grid;grid-template-columns:1fr 1fr;gap:1.1rem}form.inline{display:flex;gap:.6rem;flex-wrap:wrap}form.inline input{flex:1 1 14rem}input,textarea{font:inherit;font-weight:400;font-size:1rem;padding:.65rem .85rem;border:1px solid #a8a29e;border-radius:.55rem;background:#fff;color:#1c1917;width:100%}textarea{resize:vertical}input:focus,textarea:focus{outline:2px solid var(--accent-text);outline-offset:1px;border-color:transparent}input[disabled],textarea[disabled]{background:#f5f5f4}.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.mask summary{cursor:pointer;list-style:none;display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}.mask summary::-webkit-details-marker{display:none}.mask summary svg{width:1.15rem;height:1.15rem;color:var(--accent-text);flex:none}.mask .tog{font-size:.85rem;color:var(--accent-text);text-decoration:underline;text-underline-offset:2px}.mask[open] .masked,.mask .hide{display:none}.mask[open] .hide{display:inline}.mask[open] .show{display:none}.mask>a{display:inline-block;margin:.5rem 0 0 1.75rem;word-break:break-all}
.social{display:flex;flex-wrap:wrap;gap:.5rem;margin:1.4rem 0 0;list-style:none}.social a{display:inline-flex;gap:.45rem;align-items:center;padding:.5rem 1rem;border-radius:999px;border:1px solid #d6d3d1;color:#292524;text-decoration:none;font-size:.9rem}.social a:hover{border-color:var(--accent-text);color:var(--accent-text)}.social svg{width:1em;height:1em}
.notice{background:#ecfdf5;border:1px solid #a7f3d0;color:#065f46;padding:1rem 1.25rem;border-radius:.6rem;margin:0}.notice p{margin:0}.notice p+p{margin-top:.5rem}.magnet-offer{margin:0 0 1rem}.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;padding:.8rem 1rem;border-radius:.6rem}
.embed{display:block;width:100%;height:28rem;border:0;background:#fff;border-radius:1rem}
footer.site{background:var(--footer-bg);color:var(--footer-text);font-size:.92rem;margin-top:auto}footer.site .wrap{display:flex;flex-wrap:wrap;gap:1.5rem 3rem;justify-content:space-between;padding-top:2.75rem;padding-bottom:1.5rem}footer.site a{color:var(--footer-link);text-underline-offset:2px}footer.site p{margin:0}.fname{font-weight:700;font-size:1.15rem}.ftag{color:var(--footer-muted);margin-top:.25rem!important;max-width:24rem}footer.site nav ul{list-style:none;margin:0;display:grid;grid-template-columns:repeat(2,auto);gap:.45rem 2.5rem}footer.site .fbase{border-top:1px solid #ffffff1f;padding-top:1.25rem;padding-bottom:1.75rem;color:var(--footer-muted);font-size:.85rem}.fsocial{display:flex;flex-wrap:wrap;gap:.4rem 1rem;list-style:none;margin:.9rem 0 0}.fsocial a{display:inline-flex;align-items:center;gap:.35rem;text-decoration:none}.fsocial a:hover{text-decoration:underline}.fsocial svg{width:1em;height:1em}
#cc{position:sticky;bottom:0;z-index:40;background:#1c1917;color:#fafaf9;padding:.6rem 1.25rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:center;font-family:system-ui,sans-serif;font-size:.88rem;line-height:1.4;box-shadow:0 -8px 24px -12px #00000080}#cc:has(#ccx:checked){display:none}#cc p{margin:0}#cc .ccb{display:flex;gap:.5rem;align-items:center}#cc button,#cc .x{font:inherit;border-radius:.45rem;padding:.35rem .95rem;min-height:2.5rem;cursor:pointer;border:1px solid #ffffffa6;background:transparent;color:#fff}#cc button:hover{background:#ffffff1a}#cc button.ok{background:#fff;color:#1c1917;border-color:#fff;font-weight:700}#cc .x{border-color:transparent;font-size:1.35rem;line-height:1;padding:.45rem .7rem;display:inline-flex;align-items:center}#cc .x:hover{background:#ffffff1a}#ccx:focus-visible~.ccb .x{outline:3px solid #fff;outline-offset:2px}
@media (max-width:760px){header.site{position:static}header.site .wrap{justify-content:center;padding-top:.75rem;padding-bottom:.5rem}nav.main ul{justify-content:center;gap:0 1rem}.book,.about,.two,.spot .wrap{grid-template-columns:1fr;gap:2rem}.book .cover{position:static;text-align:center}.book .cover img{max-height:360px}.about img,.about .avatar{max-width:13rem;margin:0 auto;display:flex}.about{padding:2.25rem 0;text-align:center}.about .prose{text-align:left}.spot .wrap{text-align:center}.spot-cover img{width:12rem}.spot .actions.start{justify-content:center}.card .cover img{height:15rem}.pair{grid-template-columns:1fr}.intro{padding:3.5rem 0 3rem}.page-head{padding-top:2.5rem}.panel{padding:1.35rem}.post{padding:1.35rem}body:has(#cc) .fab{bottom:8rem}body:has(#ccx:checked) .fab{bottom:1.25rem}}
@media (max-width:640px){header.site{position:relative}header.site .wrap{flex-wrap:nowrap;justify-content:space-between;min-height:3.5rem;padding-top:.4rem;padding-bottom:.4rem}.brand{min-width:0}.brand span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}nav.main .row{display:none}nav.main .fold{display:block}.demo{font-size:.8rem;line-height:1.35}.demo .wrap{padding-top:.35rem;padding-bottom:.35rem}.demo a{padding:.2rem .6rem}}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}`;
