// A plan that shows fewer books than readers see now hides some of them: nothing changes until
// the author has been told how many and said yes (the API's confirmHiddenBooks, the sandbox
// portal's confirmation page).
import type { Db } from "../../../db/client.ts";
import type { Tier } from "../../../shared/enums.ts";
import { PLANS } from "../../../shared/plans.ts";
import { HttpError } from "../../http/errors.ts";
import { booksHiddenByPlan } from "../books/books.service.ts";

export async function assertDowngradeConfirmed(db: Db, userId: string, tier: Tier, confirmed: boolean) {
  const hidden = await booksHiddenByPlan(db, userId, tier);
  if (hidden === 0 || confirmed) return;
  const plan = PLANS[tier];
  throw new HttpError(
    409,
    `${hidden} of your books will no longer be shown on your site: the ${plan.name} plan shows ${plan.bookLimit}. The last ones in your book order are hidden; they are kept, and shown again if you upgrade.`,
    { code: "books_would_be_hidden" },
  );
}
