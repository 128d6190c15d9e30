// Staff's view of one account's newsletters (issue 32, ADR 070): how its copies fared in the last
// 30 days, and the pause. Paused, the account queues and starts nothing and its queued copies
// wait (the outbox leaves them); resumed, they go. Pausing is like banning: any staff member, not
// on themselves, and a super admin's account only by a super admin; always with a reason, audited.
import type { Db } from "../../../db/client.ts";
import { ADMIN_LIMITS } from "../../../shared/schemas/admin.ts";
import {
  NEWSLETTER_SENDING_MESSAGES as M,
  type NewsletterSending,
} from "../../../shared/schemas/newsletter-sending.ts";
import { conflictError, forbiddenError, notFoundError } from "../../lib/domain-error.ts";
import * as admin from "./admin.queries.ts";
import * as q from "./newsletter-sending.queries.ts";
import type { Staff } from "./staff.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const userNotFound = () => notFoundError("User not found");

export async function newsletterSending(db: Db, userId: string, now = new Date()): Promise<NewsletterSending> {
  const pause = await q.selectPause(db, userId);
  if (!pause) throw userNotFound();
  const days = ADMIN_LIMITS.analyticsDays;
  const f = await q.selectSendingFigures(db, userId, new Date(now.getTime() - days * DAY_MS));
  const tried = f.sent + f.bounced;
  return {
    days,
    sent: f.sent,
    bounced: f.bounced,
    bounceRatePercent: tried > 0 ? Math.round((f.bounced / tried) * 1000) / 10 : null,
    waiting: f.waiting,
    lastSentAt: f.lastSentAt?.toISOString() ?? null,
    paused: pause.at ? { at: pause.at.toISOString(), reason: pause.reason } : null,
  };
}

/** Pause or resume the account's sending; one audit row, or (refused) nothing at all. */
export async function setSendingPaused(db: Db, actor: Staff, userId: string, paused: boolean, reason: string) {
  if (actor.id === userId) throw conflictError(M.notYourself);
  await db.transaction(async (tx) => {
    const target = await admin.findAnyUser(tx, userId);
    if (!target) throw userNotFound();
    if (target.role === "super_admin" && actor.role !== "super_admin") throw forbiddenError(M.superAdminOnly);
    const now = await q.selectPause(tx, userId);
    if (paused && now?.at) throw conflictError(M.alreadyPaused);
    if (!paused && !now?.at) throw conflictError(M.notPaused);
    await q.setPause(tx, userId, paused, reason);
    await admin.insertAudit(tx, actor, paused ? "newsletter_sending_paused" : "newsletter_sending_resumed", {
      targetUserId: userId,
      target: target.email,
      detail: reason,
    });
  });
}
