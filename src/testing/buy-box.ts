// What the buy box tests share: an author with one book sold in five stores (three Amazons, Kobo,
// an indie shop), and a reader of the buy box as the page shows it.
import { books, retailerLinks } from "../db/schema/index.ts";
import type { TestServer } from "./test-server.ts";
import { createAuthor } from "./users.ts";

export const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";

/** The first store's button and the other stores' names, as the page shows them. */
export function buyBox(html: string) {
  const first =
    /<a class="btn" href="[^"]*\/buy\/[^"]*"[^>]*>.*?Buy From (?:<!-- -->)?([^<]+)<\/a>/.exec(html)?.[1] ?? null;
  const details = /<details class="drop">([\s\S]*?)<\/details>/.exec(html)?.[1] ?? "";
  const others = [...details.matchAll(/data-store="[^"]*">([^<]+)/g)].map((m) => m[1]?.replace(/&amp;/g, "&"));
  const price = /<p class="price"><small>Prices From<\/small> ?(?:<!-- -->)?([^<]+)<\/p>/.exec(html)?.[1] ?? null;
  return { first, others, price };
}

export async function setUp(s: TestServer) {
  const a = await createAuthor(s);
  const db = s.database.db;
  const [book] = await db
    .insert(books)
    .values({
      userId: a.id,
      title: "The Salt Road",
      slug: "the-salt-road",
      author: a.name,
      primaryPriceMinor: 1299,
      primaryCurrency: "USD",
    })
    .returning({ id: books.id });
  const bookId = book?.id ?? "";
  const links = await db
    .insert(retailerLinks)
    .values([
      {
        bookId,
        retailerName: "Amazon.com",
        retailerUrl: "https://www.amazon.com/dp/B0SALTROAD",
        storefront: "amazon-us",
        sortOrder: -1,
      },
      {
        bookId,
        retailerName: "Amazon.co.uk",
        retailerUrl: "https://www.amazon.co.uk/dp/B0SALTROAD",
        storefront: "amazon-uk",
        priceMinor: 499,
        currency: "GBP",
        sortOrder: 0,
      },
      {
        bookId,
        retailerName: "Amazon.de",
        retailerUrl: "https://www.amazon.de/dp/B0SALTROAD",
        storefront: "amazon-de",
        priceMinor: 599,
        currency: "EUR",
        sortOrder: 1,
      },
      {
        bookId,
        retailerName: "Kobo",
        retailerUrl: "https://www.kobo.com/ebook/salt-road",
        storefront: "kobo",
        sortOrder: 2,
      },
      { bookId, retailerName: "Indie Shop", retailerUrl: "https://shop.example/salt-road", sortOrder: 3 },
    ])
    .returning({ id: retailerLinks.id, name: retailerLinks.retailerName });
  const linkId = (name: string) => links.find((l) => l.name === name)?.id ?? "";
  return { a, bookId, linkId };
}
