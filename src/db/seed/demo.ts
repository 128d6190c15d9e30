// The demo author behind /demo: created once, on the first start of an empty database.
import { eq } from "drizzle-orm";
import { bookSlugOf } from "../../shared/book-path.ts";
import { DEMO_SUBDOMAIN } from "../../shared/reserved-subdomains.ts";
import { slugify } from "../../shared/slug.ts";
import type { Db } from "../client.ts";
import type { ImageVariants } from "../schema/books.ts";
import {
  blogPosts,
  bookGenres,
  bookSeries,
  books,
  contactSettings,
  legalPages,
  profiles,
  retailerLinks,
  reviews,
  subscriptions,
  user,
  websiteCustomization,
  websites,
} from "../schema/index.ts";

/** Where the seed puts cover images: the server passes its storage. */
export type FileStore = { put(key: string, body: Uint8Array, contentType: string): Promise<string> };

export const DEMO_EMAIL = "demo@bookplate.invalid";

type DemoBook = {
  title: string;
  subtitle?: string;
  series?: [string, number];
  released: string;
  price: number;
  blurb: string;
  genres: string[];
  colors: [string, string];
  featured?: boolean;
  rating?: number;
};

const DEMO_BOOKS: DemoBook[] = [
  {
    title: "The Lighthouse Keeper's Daughter",
    subtitle: "A Cornish Mystery",
    series: ["Harbour Lights", 1],
    released: "2023-04-14",
    price: 899,
    blurb:
      "<p>When a storm strands a stranger on Gull Rock, Morwenna Tregarthen discovers that her late father kept more than the light burning. A tale of secrets, salt and second chances.</p>",
    genres: ["Mystery", "Historical"],
    colors: ["#1e3a5f", "#f4c95d"],
    featured: true,
    rating: 4.6,
  },
  {
    title: "Tides of Silence",
    series: ["Harbour Lights", 2],
    released: "2024-02-02",
    price: 899,
    blurb: "<p>A drowned bell rings again in Porthkennack, and only Morwenna remembers why it fell silent.</p>",
    genres: ["Mystery"],
    colors: ["#0f4c5c", "#e36414"],
    rating: 4.4,
  },
  {
    title: "A Season of Small Wonders",
    released: "2022-09-22",
    price: 1099,
    blurb: "<p>Twelve months, one allotment and a village that slowly learns to talk to each other again.</p>",
    genres: ["Literary Fiction"],
    colors: ["#386641", "#f2e8cf"],
  },
  {
    title: "The Cartographer's Promise",
    released: "2021-06-10",
    price: 799,
    blurb: "<p>An Edwardian mapmaker, a missing island and a promise kept across forty years.</p>",
    genres: ["Historical", "Romance"],
    colors: ["#6a040f", "#ffba08"],
    rating: 4.2,
  },
];

function coverSvg(title: string, author: string, [bg, fg]: [string, string]): Buffer {
  const words = title.split(" ");
  const lines: string[] = [];
  for (const w of words) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${w}`.length <= 14) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/'/g, "&#39;");
  const text = lines
    .map(
      (l, i) =>
        `<text x="300" y="${330 + i * 70}" font-size="58" text-anchor="middle" fill="${fg}" font-family="serif" font-weight="bold">${esc(l)}</text>`,
    )
    .join("");
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900"><rect width="600" height="900" fill="${bg}"/><rect x="30" y="30" width="540" height="840" fill="none" stroke="${fg}" stroke-width="4"/><circle cx="300" cy="190" r="70" fill="${fg}" opacity="0.85"/>${text}<text x="300" y="800" font-size="36" text-anchor="middle" fill="${fg}" font-family="sans-serif" letter-spacing="4">${esc(author.toUpperCase())}</text></svg>`,
  );
}

async function storeCover(storage: FileStore, slug: string, svg: Buffer) {
  // Loaded only when the demo is made (its first start), like every other use of sharp (ADR 037).
  const { default: sharp } = await import("sharp");
  const variants = [];
  for (const width of [200, 400, 600]) {
    const out = await sharp(svg).resize({ width }).webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
    const url = await storage.put(`demo/covers/${slug}-${width}.webp`, out.data, "image/webp");
    variants.push({ width: out.info.width, height: out.info.height, url });
  }
  return variants;
}

/** Creates the demo author if it does not exist yet. Safe to call on every start. */
export async function seedDemo(db: Db, storage: FileStore): Promise<boolean> {
  const [existing] = await db.select({ id: websites.id }).from(websites).where(eq(websites.subdomain, DEMO_SUBDOMAIN));
  if (existing) return false;

  const authorName = "Eleanor Penrose";
  const covers: ImageVariants[] = [];
  for (const b of DEMO_BOOKS) {
    const slug = b.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    covers.push(await storeCover(storage, slug, coverSvg(b.title, authorName, b.colors)));
  }

  await db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    // A sample: staff see it, no business figure counts it (ADR 045).
    await tx.insert(user).values({ id, name: authorName, email: DEMO_EMAIL, emailVerified: true, sample: true });
    await tx.insert(profiles).values({
      id,
      name: authorName,
      email: DEMO_EMAIL,
      tagline: "Stories of the Cornish coast, its lights and its secrets",
      genre: "Mystery",
      bio: "<p>Eleanor Penrose grew up in a fishing village on the far west coast of Cornwall, where the lighthouse beam swept across her bedroom ceiling every night. A former archivist, she now writes mysteries and quiet literary novels about the places where land gives way to sea.</p><p>She lives in Penzance with a retired greyhound and far too many notebooks.</p>",
      writingJourney: [
        { year: "2015", title: "First short story", description: "Won the Falmouth short story prize." },
        { year: "2021", title: "Debut novel", description: "The Cartographer's Promise is published." },
        { year: "2023", title: "Harbour Lights", description: "The first mystery series begins." },
      ],
      onboardingCompleted: true,
      onboardingCompletedAt: new Date(),
    });
    await tx.insert(websites).values({
      userId: id,
      subdomain: DEMO_SUBDOMAIN,
      websiteName: authorName,
      websiteTitle: `${authorName} — Author`,
      tagline: "Stories of the Cornish coast",
      layoutStyle: "hero",
      homePageContent: "<p>Welcome! New readers often start with <em>The Lighthouse Keeper's Daughter</em>.</p>",
      // The demo shows its own sign-up form (ADR 052: a section nobody chose stays hidden while empty).
      showWhenEmpty: ["newsletter"],
    });
    await tx.insert(websiteCustomization).values({ userId: id, accentColor: "#6366f1", fontFamily: "merriweather" });
    await tx.insert(contactSettings).values({
      userId: id,
      contactEmail: "eleanor@example.com",
      socialLinks: [
        { platform: "instagram", url: "https://instagram.com/example", enabled: true },
        { platform: "bluesky", url: "https://bsky.app/profile/example", enabled: true },
      ],
    });
    await tx.insert(legalPages).values({
      userId: id,
      content: "<p>This demo site stores no personal data. Contact forms on the demo are disabled.</p>",
    });
    await tx.insert(subscriptions).values({ userId: id, tier: "mega", status: "active" });

    // The demo's series, with the description its series page shows (ADR 034).
    await tx.insert(bookSeries).values({
      userId: id,
      name: "Harbour Lights",
      description: "Mysteries of a Cornish harbour town, where the sea keeps what the village forgets.",
    });
    for (const [i, b] of DEMO_BOOKS.entries()) {
      const variants = covers[i] ?? [];
      const [row] = await tx
        .insert(books)
        .values({
          userId: id,
          title: b.title,
          slug: bookSlugOf(b.title),
          subtitle: b.subtitle ?? null,
          author: authorName,
          shortBlurb: b.blurb,
          releaseDate: b.released,
          seriesName: b.series?.[0] ?? null,
          orderInSeries: b.series?.[1] ?? null,
          primaryPriceMinor: b.price,
          primaryCurrency: "GBP",
          formatPaperback: true,
          isFeatured: b.featured ?? false,
          sortOrder: i,
          userRating: b.rating ?? null,
          showUserRating: b.rating !== undefined,
          coverImageUrl: variants.at(-1)?.url ?? null,
          coverImageVariants: variants,
        })
        .returning({ id: books.id });
      if (!row) continue;
      await tx.insert(bookGenres).values(b.genres.map((g, position) => ({ bookId: row.id, genreName: g, position })));
      // The buy box (ADR 036): readers in the US get Amazon.com first, everyone else the UK store.
      await tx.insert(retailerLinks).values([
        {
          bookId: row.id,
          retailerName: "Amazon.co.uk",
          retailerUrl: "https://www.amazon.co.uk/",
          storefront: "amazon-uk",
          sortOrder: 0,
        },
        {
          bookId: row.id,
          retailerName: "Amazon.com",
          retailerUrl: "https://www.amazon.com/",
          storefront: "amazon-us",
          sortOrder: 1,
        },
        { bookId: row.id, retailerName: "Waterstones", retailerUrl: "https://www.waterstones.com/", sortOrder: 2 },
        {
          bookId: row.id,
          retailerName: "Bookshop.org",
          retailerUrl: "https://uk.bookshop.org/",
          storefront: "bookshop-uk",
          sortOrder: 3,
        },
      ]);
      if (b.rating) {
        await tx.insert(reviews).values({
          bookId: row.id,
          rating: 5,
          reviewerName: "A. Reader",
          reviewText: "Atmospheric and impossible to put down.",
          reviewDate: "2024-05-01",
        });
      }
    }

    await tx.insert(blogPosts).values([
      {
        userId: id,
        title: "Tides of Silence is out today",
        slug: slugify("Tides of Silence is out today"),
        content:
          "<p>The second Harbour Lights mystery is finally here. Thank you to every reader who waited so patiently.</p>",
        category: "books",
        createdAt: new Date("2024-02-02T09:00:00Z"),
      },
      {
        userId: id,
        title: "Signing at the Penzance Literary Festival",
        slug: slugify("Signing at the Penzance Literary Festival"),
        content: "<p>Come and say hello on Saturday at 2pm in the festival marquee.</p>",
        category: "events",
        createdAt: new Date("2024-07-06T09:00:00Z"),
      },
      {
        userId: id,
        title: "Why I write by the sea",
        slug: slugify("Why I write by the sea"),
        content: "<p>Every book I have written began on the coast path between Mousehole and Lamorna.</p>",
        category: "thoughts",
        createdAt: new Date("2024-09-15T09:00:00Z"),
      },
    ]);
  });
  return true;
}
