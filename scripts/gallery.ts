// npm run gallery — the features page's 13 screenshots, taken from the running product so they
// stay true when the screens change: a server on a fresh embedded database, an author with books,
// covers, posts and a bio made through the API, Debian's Chromium on each screen, and each picture
// saved as WebP in two widths (named by their content) with src/marketing/gallery/gallery.json.
// `e2e/gallery.e2e.ts` runs the same capture on every CI run, so a screen that no longer exists
// or no longer renders fails the build rather than leaving a stale picture.

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import sharp from "sharp";
import type { TestServer } from "../src/testing/test-server.ts";
import { createAuthor } from "../src/testing/users.ts";

export const GALLERY_DIR = join(import.meta.dirname, "..", "src", "marketing", "gallery");
export const GALLERY_WIDTHS = [640, 1280] as const;
/** The address the pictures show for the author's site. */
export const GALLERY_SITES_DOMAIN = "bookplate.site";
const VIEWPORT = { width: 1280, height: 800 };

export type GalleryEntry = {
  slug: string;
  title: string;
  alt: string;
  width: number;
  height: number;
  /** Width → file name under /gallery/. */
  files: Record<string, string>;
};

type Ctx = { subdomain: string; bookId: string };
/** `reader`: a page of the public site, photographed as a signed-out reader sees it. */
type Shot = { slug: string; title: string; alt: string; path: (c: Ctx) => string; ready: string; reader?: true };

/** The 13 screens, in the order the features page shows them. `ready`: text to wait for. */
export const SHOTS: Shot[] = [
  {
    slug: "dashboard",
    title: "Your dashboard",
    alt: "The author dashboard: the live site, the plan and how many books it holds",
    path: () => "/dashboard",
    ready: "Books",
  },
  {
    slug: "books",
    title: "Your books",
    alt: "The books list with covers, reorder controls and visibility switches",
    path: () => "/dashboard/books",
    ready: "The Lantern Keeper",
  },
  {
    slug: "add-book",
    title: "Adding a book",
    alt: "The add-book form: title, author, series, formats and price",
    path: () => "/add-book",
    ready: "Add Book",
  },
  {
    slug: "edit-book",
    title: "Editing a book",
    alt: "Editing a book with its cover, blurb and retailer links",
    path: (c) => `/edit-book/${c.bookId}`,
    ready: "Edit Book",
  },
  {
    slug: "bio",
    title: "Your bio",
    alt: "The bio editor with the author's photo and about text",
    path: () => "/dashboard/bio",
    ready: "Bio",
  },
  {
    slug: "blog",
    title: "Your blog",
    alt: "The blog screen with news and event posts",
    path: () => "/dashboard/blog",
    ready: "Launch night",
  },
  {
    slug: "site-settings",
    title: "Your look",
    alt: "Site settings: colours, fonts and layout",
    path: () => "/dashboard/settings",
    ready: "Site",
  },
  {
    slug: "home-page",
    title: "Your home page",
    alt: "Home page settings: hero text, image and buttons",
    path: () => "/dashboard/home",
    ready: "Home Page",
  },
  {
    slug: "contact",
    title: "Contact and social links",
    alt: "Contact settings: the contact address, form and social links",
    path: () => "/dashboard/contact",
    ready: "Contact",
  },
  {
    slug: "newsletter",
    title: "Your newsletter",
    alt: "Newsletter settings and the list of subscribers",
    path: () => "/dashboard/newsletter",
    ready: "Newsletter",
  },
  {
    slug: "domain",
    title: "Your own domain",
    alt: "Connecting your own domain: the DNS records to add and the Verify button",
    path: () => "/dashboard/domain",
    ready: "Domain",
  },
  {
    slug: "site-home",
    title: "Your site's home page",
    alt: "An author's public home page",
    path: (c) => `/author/${c.subdomain}/`,
    ready: "Eleanor Penrose",
    reader: true,
  },
  {
    slug: "site-book",
    title: "A book page",
    alt: "A public book page with cover, blurb, formats and where to buy",
    path: (c) => `/author/${c.subdomain}/book/${c.bookId}`,
    ready: "The Lantern Keeper",
    reader: true,
  },
];

const BOOKS = [
  { title: "The Lantern Keeper", colour: ["#1e3a8a", "#60a5fa"], series: 1 },
  { title: "Salt and Starlight", colour: ["#7c2d12", "#fb923c"], series: 2 },
  { title: "The Quiet Harbour", colour: ["#064e3b", "#34d399"], series: 3 },
  { title: "A Map of Small Hours", colour: ["#581c87", "#c084fc"], series: null },
];

function escapeXml(s: string) {
  return s.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c] ?? c);
}

/** A cover as an author would upload one: 600 × 900, the title set in a serif. */
async function cover(title: string, [from, to]: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const words = title.split(" ");
  const lines = words.length > 2 ? [words.slice(0, 2).join(" "), words.slice(2).join(" ")] : [title];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="600" height="900" fill="url(#g)"/>
    <circle cx="300" cy="560" r="120" fill="#ffffff" opacity="0.18"/>
    ${lines.map((l, i) => `<text x="300" y="${220 + i * 70}" font-family="DejaVu Serif" font-size="56" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(l)}</text>`).join("")}
    <text x="300" y="820" font-family="DejaVu Sans" font-size="30" fill="#fff" text-anchor="middle" letter-spacing="6">ELEANOR VANCE</text>
  </svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

async function seedAuthor(s: TestServer) {
  const author = await createAuthor(s, {
    name: "Eleanor Penrose",
    email: "eleanor@eleanorpenrose.example",
    subdomain: "eleanorpenrose",
    tier: "midi",
  });
  const call = async (path: string, init: RequestInit & { json?: unknown }) => {
    const res = await s.api(path, { ...init, cookie: author.cookie });
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  await call("/api/profile", {
    method: "PATCH",
    json: {
      bio: "<p>Eleanor Penrose writes quiet, luminous novels about the Cornish coast and the people who keep its lights burning. Her Harbour series has been translated into nine languages.</p>",
      tagline: "Novels of the sea and the people who wait for it",
      genre: "Literary Fiction",
    },
  });
  let firstId = "";
  for (const b of [...BOOKS].reverse()) {
    const { book } = (await call("/api/books", {
      method: "POST",
      json: {
        title: b.title,
        author: "Eleanor Penrose",
        seriesName: b.series ? "The Harbour Novels" : null,
        orderInSeries: b.series,
        shortBlurb: `<p>${b.title} is a story of light, salt and second chances, told with warmth and a keen eye for the sea.</p>`,
        primaryPriceMinor: 899,
        primaryCurrency: "GBP",
        formatPaperback: true,
        formatHardback: b.series === 1,
        isFeatured: b.series === 1,
        retailerLinks: [
          { retailerName: "Amazon.co.uk", retailerUrl: "https://www.amazon.co.uk/" },
          { retailerName: "Bookshop.org", retailerUrl: "https://uk.bookshop.org/" },
        ],
        genres: ["Literary Fiction", "Coastal"],
        reviews: [
          { rating: 4.8, reviewerName: "The Coastal Review", reviewText: "Luminous and unhurried.", reviewDate: null },
        ],
      },
    })) as { book: { id: string } };
    const form = new FormData();
    form.append("file", new Blob([await cover(b.title, b.colour)], { type: "image/png" }), "cover.png");
    const up = await s.api(`/api/books/${book.id}/cover`, { method: "POST", cookie: author.cookie, body: form });
    if (!up.ok) throw new Error(`cover upload: ${up.status}`);
    if (b.series === 1) firstId = book.id;
  }
  for (const [title, category] of [
    ["Launch night at the Harbour Bookshop", "events"],
    ["The Quiet Harbour is out in paperback", "books"],
    ["Writing in winter", "news"],
  ] as const) {
    await call("/api/posts", {
      method: "POST",
      json: { title, category, content: `<p>${title}: a few words for readers, with dates and where to find me.</p>` },
    });
  }
  return { author, ctx: { subdomain: author.subdomain, bookId: firstId } };
}

/** A browser page with these cookies (`name=value; …`) on the app host. */
async function pageWith(browser: Browser, s: TestServer, cookie: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: s.url, viewport: VIEWPORT, deviceScaleFactor: 1 });
  const url = new URL(s.url);
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: url.hostname, path: "/" };
    }),
  );
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** Takes every shot and writes the WebP files to `outDir`; returns what gallery.json lists. */
export async function captureGallery(opts: { server: TestServer; browser: Browser; outDir: string }) {
  const { author, ctx } = await seedAuthor(opts.server);
  const authorPage = await pageWith(opts.browser, opts.server, author.cookie);
  // A reader who has answered the cookie question (so no banner covers the page).
  const reader = await pageWith(opts.browser, opts.server, "cookie_consent=declined");
  mkdirSync(opts.outDir, { recursive: true });
  const entries: GalleryEntry[] = [];
  for (const shot of SHOTS) {
    const page = shot.reader ? reader : authorPage;
    await page.goto(shot.path(ctx));
    await page.getByText(shot.ready).first().waitFor();
    // Fonts and images settled; no toast or caret in the picture.
    await page.evaluate(() => document.fonts.ready);
    await page.waitForLoadState("networkidle");
    const png = await page.screenshot({ type: "png", caret: "hide", animations: "disabled" });
    const files: Record<string, string> = {};
    for (const width of GALLERY_WIDTHS) {
      const webp = await sharp(png).resize({ width }).webp({ quality: 78 }).toBuffer();
      const hash = createHash("sha256").update(webp).digest("hex").slice(0, 10);
      const name = `${shot.slug}-${width}-${hash}.webp`;
      writeFileSync(join(opts.outDir, name), webp);
      files[String(width)] = name;
    }
    entries.push({ slug: shot.slug, title: shot.title, alt: shot.alt, ...VIEWPORT, files });
  }
  await authorPage.context().close();
  await reader.context().close();
  return entries;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startTestServer } = await import("../src/testing/test-server.ts");
  const server = await startTestServer({ SEED_DEMO: "false", SITES_DOMAIN: GALLERY_SITES_DOMAIN });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--font-render-hinting=none"],
  });
  try {
    // Old pictures go: the names change with the content.
    mkdirSync(GALLERY_DIR, { recursive: true });
    for (const f of readdirSync(GALLERY_DIR)) if (f.endsWith(".webp")) rmSync(join(GALLERY_DIR, f));
    const entries = await captureGallery({ server, browser, outDir: GALLERY_DIR });
    writeFileSync(join(GALLERY_DIR, "gallery.json"), `${JSON.stringify(entries, null, 2)}\n`);
    console.log(`gallery: ${entries.length} screenshots in ${GALLERY_DIR}`);
  } finally {
    await browser.close();
    await server.close();
  }
}
