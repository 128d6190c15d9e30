// Which books readers see when the plan changes (ADR 054). Billing calls this inside the
// transaction that writes a new tier, however the tier changed (the plan screen, the sandbox
// portal, a Stripe webhook, a checkout), so the books shown never outnumber what the plan allows
// and the author's choice is in the data rather than worked out from positions at read time.
// It takes the limits as numbers: the books service reads the plan through billing, so this file
// must not import billing (that would be a cycle).
import type { Tx } from "../../../db/client.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./books.queries.ts";

export type PlanFit = {
  /** What the new plan allows. */
  limit: number;
  /** What the plan before it allowed: a bigger plan shows again what a smaller one hid. */
  previousLimit: number;
  /**
   * The books the author chose to keep showing (checked by the books service beforehand); used
   * only when the new plan shows fewer books than readers see now. Without it, the first ones in
   * the author's order stay.
   */
  keepVisible?: readonly string[] | undefined;
};

/** Hides what the plan no longer covers, or shows again what a smaller plan hid; the counts it changed. */
export async function fitBooksToPlan(tx: Tx, userId: string, fit: PlanFit): Promise<{ hidden: number; shown: number }> {
  if (!(await q.lockAuthor(tx, userId))) return { hidden: 0, shown: 0 };
  const rows = await q.selectBooks(tx, userId);
  const visible = rows.filter((b) => b.visibilityEnabled);
  let hide: string[] = [];
  let show: string[] = [];
  if (visible.length > fit.limit) {
    const own = new Set(rows.map((b) => b.id));
    // A chosen book deleted meanwhile is simply gone; the choice never exceeds the limit.
    const keep = fit.keepVisible
      ? new Set(fit.keepVisible.filter((id) => own.has(id)).slice(0, fit.limit))
      : new Set(visible.slice(0, fit.limit).map((b) => b.id));
    hide = visible.filter((b) => !keep.has(b.id)).map((b) => b.id);
    show = rows.filter((b) => keep.has(b.id) && !b.visibilityEnabled).map((b) => b.id);
  } else if (fit.limit > fit.previousLimit) {
    show = rows
      .filter((b) => b.hiddenByPlan)
      .slice(0, fit.limit - visible.length)
      .map((b) => b.id);
  }
  await q.setShown(tx, userId, hide, false, true);
  await q.setShown(tx, userId, show, true);
  if (hide.length || show.length) await markSiteChanged(tx, userId);
  return { hidden: hide.length, shown: show.length };
}
