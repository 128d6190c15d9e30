// The database itself keeps the rules that must never break, whatever the code above it does.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { s, startFileServer } from "../../testing/file-server.ts";
import { books, profiles, subscriptions, user, websites } from "./index.ts";

startFileServer();

async function newUser(name: string) {
  const id = crypto.randomUUID();
  await s.database.db.insert(user).values({ id, name, email: `${name}-${id}@example.com` });
  await s.database.db.insert(profiles).values({ id, name, email: `${name}@example.com` });
  return id;
}

async function rejects(p: Promise<unknown>) {
  let error: unknown;
  try {
    await p;
  } catch (err) {
    error = err;
  }
  expect(error, "the database accepted it").toBeDefined();
}

describe("constraints", () => {
  it("keeps subdomains unique regardless of case, and one website per user", async () => {
    const a = await newUser("a");
    const b = await newUser("b");
    await s.database.db.insert(websites).values({ userId: a, subdomain: "janeauthor", websiteName: "Jane" });
    await rejects(s.database.db.insert(websites).values({ userId: b, subdomain: "janeauthor", websiteName: "B" }));
    await rejects(
      s.database.db.execute(
        `insert into websites (user_id, subdomain, website_name) values ('${b}', 'JANEAUTHOR', 'B')`,
      ),
    );
    await rejects(s.database.db.insert(websites).values({ userId: a, subdomain: "another", websiteName: "Second" }));
  });

  it("checks subdomain format and enumerated columns", async () => {
    const c = await newUser("c");
    await rejects(s.database.db.insert(websites).values({ userId: c, subdomain: "ab", websiteName: "x" }));
    await rejects(s.database.db.insert(websites).values({ userId: c, subdomain: "has-dash", websiteName: "x" }));
    await rejects(
      s.database.db
        .insert(websites)
        .values({ userId: c, subdomain: "okname", websiteName: "x", domainOption: "premium" }),
    );
    await rejects(s.database.db.insert(subscriptions).values({ userId: c, tier: "gold" }));
    await rejects(s.database.db.insert(subscriptions).values({ userId: c, status: "paused" }));
    await rejects(s.database.db.insert(subscriptions).values({ userId: c, currency: "JPY" }));
    await rejects(
      s.database.db.insert(books).values({ userId: c, title: "T", slug: "t", author: "A", userRating: 5.5 }),
    );
    await rejects(
      s.database.db.insert(books).values({ userId: c, title: "T", slug: "t", author: "A", primaryPriceMinor: -1 }),
    );
    await rejects(
      s.database.db.insert(books).values({ userId: c, title: "T", slug: "t", author: "A", orderInSeries: 0 }),
    );
  });

  it("allows one featured book per author and one subscription per user", async () => {
    const d = await newUser("d");
    await s.database.db.insert(books).values({ userId: d, title: "One", slug: "one", author: "A", isFeatured: true });
    await rejects(
      s.database.db.insert(books).values({ userId: d, title: "Two", slug: "two", author: "A", isFeatured: true }),
    );
    await s.database.db.insert(subscriptions).values({ userId: d });
    await rejects(s.database.db.insert(subscriptions).values({ userId: d }));
  });

  it("removes everything of a user with the user", async () => {
    const e = await newUser("e");
    await s.database.db.insert(websites).values({ userId: e, subdomain: "eauthor", websiteName: "E" });
    await s.database.db.insert(books).values({ userId: e, title: "T", slug: "t", author: "A" });
    await s.database.db.delete(user).where(eq(user.id, e));
    expect(await s.database.db.select().from(websites).where(eq(websites.userId, e))).toEqual([]);
    expect(await s.database.db.select().from(books).where(eq(books.userId, e))).toEqual([]);
    expect(await s.database.db.select().from(profiles).where(eq(profiles.id, e))).toEqual([]);
  });
});
