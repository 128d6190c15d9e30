// The live open-ticket count for the back office. One LISTEN per process on `support_tickets`
// (NOTIFY reaches every process on the database, so a ticket filed through any of them counts);
// a burst of notices becomes one recount, sent to every open admin page of this process.
import type { Database } from "../../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { TICKETS_CHANNEL } from "../support/support.service.ts";
import { openTicketCount } from "./admin-tickets.service.ts";

export type TicketFeed = { subscribe(onCount: (open: number) => void): () => void };

const feeds = new WeakMap<Database, Promise<TicketFeed>>();

/** Recounts this soon after the first of several notices, so a burst costs one query. */
const COALESCE_MS = 25;

export function ticketFeed(database: Database, logger: Logger): Promise<TicketFeed> {
  let feed = feeds.get(database);
  if (!feed) {
    feed = startFeed(database, logger);
    feeds.set(database, feed);
    // A failed LISTEN is tried again by the next page that connects.
    feed.catch(() => feeds.delete(database));
  }
  return feed;
}

async function startFeed(database: Database, logger: Logger): Promise<TicketFeed> {
  const subscribers = new Set<(open: number) => void>();
  let pending: ReturnType<typeof setTimeout> | null = null;
  const recount = () => {
    if (pending || subscribers.size === 0) return;
    pending = setTimeout(async () => {
      pending = null;
      try {
        const open = await openTicketCount(database.db);
        for (const s of subscribers) s(open);
      } catch (err) {
        logger.warn({ err }, "open ticket recount failed");
      }
    }, COALESCE_MS);
  };
  await database.listen(TICKETS_CHANNEL, recount, { onReconnect: recount });
  return {
    subscribe(onCount) {
      subscribers.add(onCount);
      return () => {
        subscribers.delete(onCount);
      };
    },
  };
}
