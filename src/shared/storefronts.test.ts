// The buy box's pure rules (ADR 036): country groups from a country code or Accept-Language,
// stores read from addresses, ASINs read from Amazon links and turned into other marketplaces'.
import { describe, expect, it } from "vitest";
import {
  AMAZON_STOREFRONTS,
  amazonUrlFor,
  asinOfAmazonUrl,
  countryGroup,
  firstStoreDiffers,
  firstStoreIndex,
  groupOfCountry,
  groupOfLanguages,
  storefrontOfUrl,
} from "./storefronts.ts";

describe("country groups", () => {
  it("put a country with the store that serves it, and anything else in the empty group", () => {
    expect(["US", "gb", "IE", "AT", "CH", "BE", "PT", "NZ", "IN"].map(groupOfCountry)).toEqual([
      "us",
      "uk",
      "uk",
      "de",
      "de",
      "fr",
      "es",
      "au",
      "in",
    ]);
    for (const junk of [undefined, "", "XX", "T1", "GBR", "G", "constructor", "__proto__"]) {
      expect(groupOfCountry(junk), String(junk)).toBe("");
    }
  });

  it("read Accept-Language: a region first, else a language with a home market, else nothing", () => {
    const cases: [string | undefined, string][] = [
      ["en-GB,en;q=0.9", "uk"],
      ["en-US", "us"],
      ["de", "de"],
      ["de-CH", "de"],
      ["fr-CA,fr;q=0.8", "ca"],
      ["fr", "fr"],
      ["zh-Hant-TW", ""],
      ["en-Latn-GB", "uk"],
      ["sr-Latn-RS", ""],
      ["pt-BR,pt;q=0.9,en;q=0.5,de;q=0.3", ""],
      ["es-419,es;q=0.9", "es"],
      ["en", ""],
      ["ja,en-GB;q=0.5", "uk"],
      ["*", ""],
      ["", ""],
      [undefined, ""],
      [`${"x-".repeat(5000)}GB`, ""],
    ];
    for (const [header, group] of cases) expect(groupOfLanguages(header), String(header)).toBe(group);
  });

  it("take a trusted country header over the languages, even when it names no group", () => {
    expect(countryGroup("DE", "en-GB")).toBe("de");
    expect(countryGroup("BR", "en-GB")).toBe("");
    expect(countryGroup(undefined, "en-GB")).toBe("uk");
  });
});

describe("stores from addresses", () => {
  it("knows each store's hosts, and nothing else", () => {
    expect(storefrontOfUrl("https://www.amazon.co.uk/dp/B0SALTROAD")).toBe("amazon-uk");
    expect(storefrontOfUrl("https://smile.amazon.com/dp/B0SALTROAD")).toBe("amazon-us");
    expect(storefrontOfUrl("https://amazon.com.au/x")).toBe("amazon-au");
    expect(storefrontOfUrl("https://books.apple.com/gb/book/x/id1")).toBe("apple");
    expect(storefrontOfUrl("https://www.kobo.com/gb/en/ebook/x")).toBe("kobo");
    expect(storefrontOfUrl("https://www.barnesandnoble.com/w/x")).toBe("barnes-noble");
    expect(storefrontOfUrl("https://play.google.com/store/books/details?id=x")).toBe("google-play");
    expect(storefrontOfUrl("https://bookshop.org/p/books/x")).toBe("bookshop-us");
    expect(storefrontOfUrl("https://uk.bookshop.org/p/books/x")).toBe("bookshop-uk");
    for (const other of [
      "https://amazon.com.evil.example/",
      "https://evilamazon.com/",
      "https://shop.example/",
      "nope",
    ]) {
      expect(storefrontOfUrl(other), other).toBeNull();
    }
  });

  it("reads the ASIN of an Amazon product link and builds every marketplace's", () => {
    expect(asinOfAmazonUrl("https://www.amazon.co.uk/gp/product/b0saltroad/ref=x?tag=y")).toBe("B0SALTROAD");
    expect(asinOfAmazonUrl("https://www.amazon.com/The-Salt-Road/dp/0306406152/ref=sr_1_1")).toBe("0306406152");
    expect(asinOfAmazonUrl("https://www.amazon.de/dp/B0SALTROAD")).toBe("B0SALTROAD");
    for (const no of [
      "https://www.amazon.co.uk/",
      "https://www.amazon.co.uk/dp/B0SHORT",
      "https://www.amazon.co.uk/dp/B0SALTROAD99",
      "https://shop.example/dp/B0SALTROAD",
    ]) {
      expect(asinOfAmazonUrl(no), no).toBeNull();
    }
    expect(AMAZON_STOREFRONTS.map((s) => amazonUrlFor(s, "B0SALTROAD"))).toContain(
      "https://www.amazon.com.au/dp/B0SALTROAD",
    );
    expect(amazonUrlFor("amazon-fr", "../../evil")).toBeNull();
    expect(amazonUrlFor("kobo", "B0SALTROAD")).toBeNull();
  });

  it("puts the reader's local store first, else the author's first", () => {
    const links = [
      { storefront: "amazon-us" },
      { storefront: "kobo" },
      { storefront: "amazon-uk" },
      { storefront: null },
    ];
    expect(firstStoreIndex(links, "uk")).toBe(2);
    expect(firstStoreIndex(links, "us")).toBe(0);
    expect(firstStoreIndex(links, "de")).toBe(0);
    expect(firstStoreIndex(links, "")).toBe(0);
    expect(firstStoreIndex([], "uk")).toBe(-1);
    // The author sells on Amazon first: the reader's own marketplace, before other local stores.
    const addAll = [{ storefront: "amazon-uk" }, { storefront: "barnes-noble" }, { storefront: "amazon-us" }];
    expect(firstStoreIndex(addAll, "us")).toBe(2);
    expect(firstStoreIndex(addAll, "uk")).toBe(0);
    expect(firstStoreIndex(addAll, "de")).toBe(0);
    // Another store first: the author's order among the reader's local stores.
    const nookFirst = [{ storefront: "kobo" }, { storefront: "barnes-noble" }, { storefront: "amazon-us" }];
    expect(firstStoreIndex(nookFirst, "us")).toBe(1);
  });

  it("say a page varies only when a store after the first serves some countries", () => {
    expect(firstStoreDiffers([{ storefront: "amazon-us" }, { storefront: "amazon-uk" }])).toBe(true);
    expect(firstStoreDiffers([{ storefront: "kobo" }, { storefront: "bookshop-uk" }])).toBe(true);
    expect(firstStoreDiffers([{ storefront: "amazon-us" }, { storefront: "kobo" }, { storefront: null }])).toBe(false);
    expect(firstStoreDiffers([{ storefront: "amazon-uk" }])).toBe(false);
    expect(firstStoreDiffers([])).toBe(false);
  });
});
