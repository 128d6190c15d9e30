// LISTEN on PostgreSQL: one connection per process for every channel (ADR 094). It stays open
// outside the pool. Up to PostgreSQL 18 a NOTIFY wakes every backend of the database that listens
// on any channel, so a connection per channel would be woken once per channel by every NOTIFY.
import pg from "pg";

const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 10_000;

export type Subscription = {
  channel: string;
  onPayload: (payload: string) => void;
  /** Told when the connection is back after a loss: notices sent meanwhile were missed. */
  onReconnect?: (() => void) | undefined;
  /** Told as soon as the connection is lost. */
  onDown?: (() => void) | undefined;
};

/**
 * The process's listening connection. The first `subscribe` opens it and fails if it cannot
 * (a database unreachable at start-up is a start-up error), as does a `subscribe` while it is
 * down. When PostgreSQL drops it (a restart, a failover, an admin), it is opened again with a
 * growing delay and listens on every channel again: each subscription is told `onDown` at once
 * and `onReconnect` once it is back. The last unsubscribe closes it.
 */
export function listeningConnection(url: string, onConnectionError: (err: Error) => void) {
  const subscriptions = new Set<Subscription>();
  let current: pg.Client | undefined;
  const listened = new Set<string>();
  let retry: NodeJS.Timeout | undefined;
  let delay = RECONNECT_FIRST_MS;
  // Opening, listening and closing take turns, so a channel is never listened on twice or missed.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turn.then(work, work);
    turn = next.catch(() => {});
    return next;
  };

  const open = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", onConnectionError);
    client.on("notification", (n) => {
      for (const s of subscriptions) if (s.channel === n.channel) s.onPayload(n.payload ?? "");
    });
    const channels = new Set([...subscriptions].map((s) => s.channel));
    try {
      await client.connect();
      for (const channel of channels) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    client.once("end", () => {
      if (current !== client) return; // closed on purpose
      current = undefined;
      listened.clear();
      for (const s of subscriptions) s.onDown?.();
      scheduleReconnect();
    });
    current = client;
    for (const channel of channels) listened.add(channel);
    delay = RECONNECT_FIRST_MS;
    return client;
  };

  const scheduleReconnect = () => {
    if (retry || subscriptions.size === 0) return;
    retry = setTimeout(() => {
      void inTurn(async () => {
        retry = undefined;
        if (current || subscriptions.size === 0) return;
        try {
          await open();
          for (const s of subscriptions) s.onReconnect?.();
        } catch (err) {
          onConnectionError(err as Error);
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
          scheduleReconnect();
        }
      });
    }, delay);
    retry.unref();
  };

  const close = async () => {
    clearTimeout(retry);
    retry = undefined;
    const client = current;
    current = undefined;
    listened.clear();
    await client?.end();
  };

  return {
    subscribe(s: Subscription): Promise<void> {
      return inTurn(async () => {
        let reopened = false;
        if (!current) {
          // Down with a retry waiting: try now, and fail this subscribe if it cannot.
          clearTimeout(retry);
          retry = undefined;
          try {
            await open();
            reopened = subscriptions.size > 0;
          } catch (err) {
            scheduleReconnect();
            throw err;
          }
        }
        if (!listened.has(s.channel)) {
          await current?.query(`listen ${pg.escapeIdentifier(s.channel)}`);
          listened.add(s.channel);
        }
        subscriptions.add(s);
        if (reopened) for (const other of subscriptions) if (other !== s) other.onReconnect?.();
      });
    },
    unsubscribe(s: Subscription): Promise<void> {
      return inTurn(async () => {
        if (!subscriptions.delete(s)) return;
        if (subscriptions.size === 0) return close();
        if ([...subscriptions].some((other) => other.channel === s.channel) || !listened.has(s.channel)) return;
        listened.delete(s.channel);
        await current?.query(`unlisten ${pg.escapeIdentifier(s.channel)}`).catch(() => {});
      });
    },
    close(): Promise<void> {
      return inTurn(async () => {
        subscriptions.clear();
        await close();
      });
    },
  };
}
