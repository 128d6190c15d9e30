// Column picks and joins that several modules read the same way, so that one shape serves them:
// a subscriber as the author sees them (and as the API answers it), and an account with its
// (optional) profile and site.
import { eq } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { newsletterSubscribers, profiles, user, websites } from "../../db/schema/index.ts";
import type { NewsletterSubscriber } from "../../shared/schemas/newsletter-settings.ts";

/** A subscriber as the author's list shows them, less the row's id (the account export has none). */
export const subscriberFields = {
  email: newsletterSubscribers.email,
  status: newsletterSubscribers.status,
  createdAt: newsletterSubscribers.createdAt,
  confirmedAt: newsletterSubscribers.confirmedAt,
  signupPage: newsletterSubscribers.signupPage,
  importedAt: newsletterSubscribers.importedAt,
};

/** A row read with `{ id, ...subscriberFields }`, as the API answers it. */
export function subscriberView(
  r: Pick<typeof newsletterSubscribers.$inferSelect, "id" | keyof typeof subscriberFields>,
): NewsletterSubscriber {
  return {
    id: r.id,
    email: r.email,
    status: r.status as NewsletterSubscriber["status"],
    createdAt: r.createdAt.toISOString(),
    confirmedAt: r.confirmedAt?.toISOString() ?? null,
    signupPage: r.signupPage,
    importedAt: r.importedAt?.toISOString() ?? null,
  };
}

/** An account's query joined to its profile and website, either of which may not exist yet. */
export function withProfileAndSite<Q extends PgSelect>(query: Q) {
  return query.leftJoin(profiles, eq(profiles.id, user.id)).leftJoin(websites, eq(websites.userId, user.id));
}
