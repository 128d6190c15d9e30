// Requests taking turns with the event loop (ADR 081). With the embedded database (PGlite) a
// statement runs inside this thread and answers without waiting on I/O, so a request started in
// a turn of the event loop runs to its end before the loop looks at its sockets again. Every
// request read in one turn then ran in that turn: with 32 readers waiting, a turn lasted 32
// renders. Node's event loop takes one new connection per turn (libuv accepts one per poll), so
// a burst of new readers came in one per turn, each turn longer than the last: the 32nd reader
// of a just-started process waited about a second for its first page. Here requests start one per
// turn, in the order they came: between two of them the loop accepts a connection, reads the
// requests that arrived and answers kept pages (the fast path, ADR 033, does not wait here).

/** Starts each function given in a turn of the event loop of its own, in the order given. */
export type Turns = (start: () => void) => void;

export function takeTurns(): Turns {
  const waiting: (() => void)[] = [];
  let head = 0;
  let scheduled = false;
  const next = () => {
    const start = waiting[head];
    waiting[head++] = noop;
    if (head === waiting.length) {
      waiting.length = 0;
      head = 0;
      scheduled = false;
    } else {
      // Queued now, in the check phase: it runs in the next turn, after the loop polls.
      setImmediate(next);
    }
    start?.();
  };
  return (start) => {
    waiting.push(start);
    if (!scheduled) {
      scheduled = true;
      setImmediate(next);
    }
  };
}

const noop = () => undefined;
