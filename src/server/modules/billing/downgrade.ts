// A plan that shows fewer books than readers see now hides some of them: nothing changes until
// the author has been told how many and either chose the books that stay (the API's keepVisible,
// the plan screen's picker) or said yes to keeping the first ones in their order (the API's
// confirmHiddenBooks, the sandbox portal's confirmation page). ADR 054.
import type { Db } from "../../../db/client.ts";
import type { Tier } from "../../../shared/enums.ts";
import { PLANS } from "../../../shared/plans.ts";
import { DomainError } from "../../lib/domain-error.ts";
import { booksHiddenByPlan, checkBooksToKeep } from "../books/books.service.ts";

export async function assertDowngradeConfirmed(
  db: Db,
  userId: string,
  tier: Tier,
  confirmed: boolean,
  keepVisible?: readonly string[],
) {
  // A choice is checked whatever the plan: a wrong one is refused, never half applied.
  if (keepVisible) await checkBooksToKeep(db, userId, tier, keepVisible);
  const hidden = await booksHiddenByPlan(db, userId, tier);
  if (hidden === 0 || confirmed || keepVisible) return;
  const plan = PLANS[tier];
  throw new DomainError(
    "books_would_be_hidden",
    `${hidden} of your books will no longer be shown on your site: the ${plan.name} plan shows ${plan.bookLimit}. Choose the ones that stay; the others are kept, and shown again if you upgrade.`,
  );
}
