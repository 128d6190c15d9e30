import type { Db, Tx } from "../../../db/client.ts";
import {
  capMessage,
  NEWSLETTER_MESSAGES,
  type Newsletter,
  type NewsletterCreate,
  type NewsletterFigures,
  type NewsletterPreview,
  type NewsletterSend,
  type NewsletterUpdate,
} from "../../../shared/schemas/newsletter.ts";
import { conflictError, DomainError, forbiddenError, notFoundError } from "../../lib/domain-error.ts";
import { cleanAuthorHtml } from "../../lib/html.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Mail, MailSender, NewsletterQueue } from "../mail/mail.service.ts";
import { cleanContent, createPost } from "../posts/posts.service.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import { mailBookCardBooks } from "./newsletter-book-cards.ts";
import { addNewsletterLinks, linkFigures } from "./newsletter-clicks.service.ts";
import * as q from "./newsletters.queries.ts";

export const newsletterNotFound = () => notFoundError(NEWSLETTER_MESSAGES.notFound);

export {
  type CopyFrame,
  copyMessageId,
  makeCopyDirect,
  makeNewsletterCopy,
  newsletterFrame,
  type SiteAddress,
} from "./newsletter-copy.ts";

import { newsletterFrame, type SiteAddress, siteHost } from "./newsletter-copy.ts";

export type NewsletterDeps = {
  db: Db;
  mailer: MailSender & NewsletterQueue;
  logger: Logger;
  site: SiteAddress;
  /** Newsletter copies one account may queue in 24 hours (NEWSLETTER_DAILY_CAP). */
  dailyCap: number;
};

function view(row: q.NewsletterRow): Newsletter {
  return {
    id: row.id,
    subject: row.subject,
    content: row.content,
    status: row.status as Newsletter["status"],
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    recipients: row.recipients,
    error: row.error,
    publishAsPost: row.publishAsPost,
    postId: row.postId,
    countClicks: row.countClicks,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listNewsletters(db: Db, userId: string): Promise<Newsletter[]> {
  return (await q.selectNewsletters(db, userId)).map(view);
}

/** Whether staff paused the author's sending (ADR 070). */
export const sendingPaused = (db: Db, userId: string) => q.selectSendingPaused(db, userId);

export async function getNewsletter(db: Db, userId: string, id: string): Promise<Newsletter> {
  const row = await q.selectNewsletter(db, userId, id);
  if (!row) throw newsletterNotFound();
  return view(row);
}

export async function createNewsletter(db: Db, userId: string, input: NewsletterCreate): Promise<Newsletter> {
  const content = cleanContent(input.content);
  return view(await q.insertNewsletter(db, userId, { ...input, content }));
}

/** Why a newsletter in this state cannot be changed, sent again or deleted. */
function refusal(row: q.NewsletterRow) {
  return conflictError(
    row.status === "sending" ? NEWSLETTER_MESSAGES.notWhileSending : NEWSLETTER_MESSAGES.notEditable,
  );
}

/** A draft or a scheduled newsletter may change (a scheduled one goes with what it says then). */
export async function updateNewsletter(
  db: Db,
  userId: string,
  id: string,
  input: NewsletterUpdate,
): Promise<Newsletter> {
  const values: q.NewsletterValues = { ...input };
  if (input.content !== undefined) values.content = cleanContent(input.content);
  return db.transaction(async (tx) => {
    const row = await q.lockNewsletter(tx, userId, id);
    if (!row) throw newsletterNotFound();
    const changed = await q.updateNewsletter(tx, userId, id, values, ["draft", "scheduled"]);
    if (!changed) throw refusal(row);
    return view(changed);
  });
}

/**
 * Any newsletter but one going out. A draft or scheduled one is deleted; a sent one is gone for
 * the author (list, figures, archive) and its text blanked, but its copies stay, so deleting it
 * gives no newsletter mails back to the day's cap (ADR 069).
 */
export async function deleteNewsletter(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await q.lockNewsletter(tx, userId, id);
    if (!row) throw newsletterNotFound();
    if (row.status === "sending") throw refusal(row);
    if (row.status === "sent") {
      await q.hideSentNewsletter(tx, userId, id);
      // A sent one leaves the site's archive (ADR 071).
      await markSiteChanged(tx, userId);
    } else await q.deleteNewsletter(tx, userId, id);
  });
}

/**
 * Queues one copy per confirmed subscriber, in the caller's transaction, after the day's cap.
 * The caller holds the newsletter's row lock; the author's lock taken here (always after the
 * newsletter's, so two sends never wait on each other crosswise) serialises the author's sends.
 */
async function goOut(tx: Tx, deps: NewsletterDeps, row: q.NewsletterRow): Promise<q.NewsletterRow> {
  await capAllows(tx, deps, row.userId);
  if (row.countClicks) await addNewsletterLinks(tx, row.id, row.content);
  const added = await deps.mailer.queueNewsletter(tx, {
    newsletterId: row.id,
    userId: row.userId,
    subject: row.subject,
  });
  return q.markGoingOut(tx, row.id, added);
}

/**
 * Refuses (nothing queued) when staff paused the author's sending (ADR 070) or when the author's
 * confirmed readers would take them over the cap.
 */
async function capAllows(tx: Tx, deps: NewsletterDeps, userId: string): Promise<void> {
  if ((await q.lockAuthor(tx, userId)).paused) throw forbiddenError(NEWSLETTER_MESSAGES.sendingPaused);
  const recipients = await q.countConfirmed(tx, userId);
  const used = await q.countCopiesLastDay(tx, userId);
  if (used + recipients > deps.dailyCap) {
    throw new DomainError("sending_limit_reached", capMessage(deps.dailyCap, used, recipients));
  }
}

/**
 * Send now (no `at`), or at `at` (a time to come; a past one is refused). Refused, with nothing
 * queued: a newsletter going out or gone, no confirmed subscribers, the day's cap.
 */
export async function sendNewsletter(
  deps: NewsletterDeps,
  userId: string,
  id: string,
  input: NewsletterSend,
  now = new Date(),
): Promise<Newsletter> {
  const at = input.at ? new Date(input.at) : null;
  if (at && at.getTime() <= now.getTime()) {
    throw new DomainError("validation_failed", NEWSLETTER_MESSAGES.pastTime, { field: "at" });
  }
  const row = await deps.db.transaction(async (tx) => {
    const n = await q.lockNewsletter(tx, userId, id);
    if (!n) throw newsletterNotFound();
    if (n.status === "sending" || n.status === "sent") throw refusal(n);
    if ((await q.countConfirmed(tx, userId)) === 0) throw conflictError(NEWSLETTER_MESSAGES.noSubscribers);
    if (!at) return goOut(tx, deps, n);
    // Checked now too, so the author hears at once; checked again when it goes.
    await capAllows(tx, deps, userId);
    const scheduled = await q.updateNewsletter(tx, userId, id, { status: "scheduled", scheduledAt: at, error: null }, [
      "draft",
      "scheduled",
    ]);
    if (!scheduled) throw refusal(n);
    return scheduled;
  });
  const postId = row.status === "sending" ? await publishIfAsked(deps, row) : null;
  return view(postId ? { ...row, postId } : row);
}

/** A scheduled newsletter goes back to draft. */
export async function cancelNewsletter(db: Db, userId: string, id: string): Promise<Newsletter> {
  return db.transaction(async (tx) => {
    const row = await q.lockNewsletter(tx, userId, id);
    if (!row) throw newsletterNotFound();
    if (row.status !== "scheduled") throw conflictError(NEWSLETTER_MESSAGES.notScheduled);
    const back = await q.updateNewsletter(tx, userId, id, { status: "draft", scheduledAt: null }, ["scheduled"]);
    if (!back) throw conflictError(NEWSLETTER_MESSAGES.notScheduled);
    return view(back);
  });
}

/** The blog post a newsletter asked for, once it went out (after its own transaction). */
async function publishIfAsked(deps: NewsletterDeps, row: q.NewsletterRow): Promise<string | null> {
  if (!row.publishAsPost || row.postId) return null;
  try {
    const post = await createPost(deps.db, row.userId, { title: row.subject, content: row.content, category: "news" });
    await q.setPost(deps.db, row.id, post.id);
    return post.id;
  } catch (err) {
    deps.logger.error({ err, newsletterId: row.id }, "newsletter went out but its blog post was not made");
    return null;
  }
}

export async function newsletterFigures(db: Db, userId: string, id: string): Promise<NewsletterFigures> {
  if (!(await q.selectNewsletter(db, userId, id))) throw newsletterNotFound();
  return { ...(await q.selectFigures(db, id)), links: await linkFigures(db, id) };
}

/**
 * The job (every few seconds, in every process): each scheduled newsletter whose time came goes
 * out, one transaction each, taken with SKIP LOCKED so two processes never take the same one
 * (and the unique index would add nobody twice anyway). One over the day's cap goes back to
 * draft with the reason. Then newsletters with no copy left waiting are marked sent.
 */
export async function runNewsletterJob(deps: NewsletterDeps): Promise<{ started: number; finished: number }> {
  let started = 0;
  for (;;) {
    const went = await deps.db.transaction(async (tx) => {
      const n = await q.lockOneDue(tx);
      if (!n) return null;
      try {
        return await goOut(tx, deps, n);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        deps.logger.warn({ newsletterId: n.id, code: err.code }, "scheduled newsletter not sent");
        await q.updateNewsletter(tx, n.userId, n.id, { status: "draft", scheduledAt: null, error: err.message }, [
          "scheduled",
        ]);
        return undefined;
      }
    });
    if (went === null) break;
    if (went) {
      started++;
      await publishIfAsked(deps, went);
    }
  }
  const finished = await q.markFinished(deps.db);
  // A sent newsletter is in its site's archive (ADR 071): the cached pages go.
  for (const userId of new Set(finished.map((f) => f.userId))) await markSiteChanged(deps.db, userId);
  return { started, finished: finished.length };
}

async function authorsCopy(deps: Pick<NewsletterDeps, "db" | "site">, userId: string, subject: string, html: string) {
  const author = await q.selectAuthor(deps.db, userId);
  if (!author) throw newsletterNotFound();
  const host = siteHost(author, deps.site);
  const frame = newsletterFrame({
    subject,
    contentHtml: html,
    authorName: author.authorName ?? "",
    siteHost: host,
    siteUrl: `${deps.site.protocol}//${host}/`,
    unsubscribeUrl: null,
    books: await mailBookCardBooks(deps.db, userId, html),
    postalAddress: author.postalAddress,
  });
  return { to: author.authorEmail, frame };
}

/** The newsletter as a reader will get it, to the author's own account address, marked a test. */
export async function sendTestNewsletter(deps: NewsletterDeps, userId: string, id: string): Promise<string> {
  const row = await q.selectNewsletter(deps.db, userId, id);
  if (!row) throw newsletterNotFound();
  const { to, frame } = await authorsCopy(deps, userId, row.subject, row.content);
  const mail: Mail = { to, subject: `[Test] ${row.subject}`, text: frame.text, html: frame.html };
  try {
    await deps.mailer.send(mail);
  } catch {
    throw new DomainError("mail_failed", NEWSLETTER_MESSAGES.testFailed);
  }
  return to;
}

/**
 * The editor's preview: the words as they stand, cleaned by the post rule and put in the mail's
 * own HTML with the book cards and the footer, so the author sees what readers will.
 */
export async function previewNewsletter(
  deps: Pick<NewsletterDeps, "db" | "site">,
  userId: string,
  draft: NewsletterPreview,
): Promise<string> {
  return (await authorsCopy(deps, userId, draft.subject, cleanAuthorHtml(draft.content) ?? "")).frame.html;
}
