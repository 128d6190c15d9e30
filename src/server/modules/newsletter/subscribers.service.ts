// The author's own mailing list: a page of it at a time, removing a reader, and importing the list
// a reader base already has at another provider (ADR 067). The owner is always the caller's id.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { SUBSCRIBER_STATUSES } from "../../../shared/enums.ts";
import {
  IMPORT_INVALID_SHOWN,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  SUBSCRIBERS_PAGE_SIZE,
  type SubscriberImport,
  type SubscribersPage,
  type SubscribersQuery,
} from "../../../shared/schemas/subscribers.ts";
import { DomainError, notFoundError } from "../../lib/domain-error.ts";
import { subscriberView } from "../../lib/select-shapes.ts";
import { decodeCsv, emailColumn, parseCsv } from "./subscriber-csv.ts";
import * as q from "./subscribers.queries.ts";

export const SUBSCRIBER_NOT_FOUND = "Subscriber not found";

export async function listSubscriberPage(db: Db, userId: string, query: SubscribersQuery): Promise<SubscribersPage> {
  const filter = { q: query.q || undefined, status: query.status };
  const offset = (query.page - 1) * SUBSCRIBERS_PAGE_SIZE;
  const [rows, total, byStatus] = await Promise.all([
    q.selectSubscriberPage(db, userId, filter, SUBSCRIBERS_PAGE_SIZE, offset),
    q.countSubscribers(db, userId, filter),
    q.countByStatus(db, userId),
  ]);
  const counts = Object.fromEntries(SUBSCRIBER_STATUSES.map((st) => [st, 0])) as SubscribersPage["counts"];
  for (const r of byStatus) if (r.status in counts) counts[r.status as keyof typeof counts] = r.n;
  return {
    subscribers: rows.map(subscriberView),
    total,
    page: query.page,
    pageSize: SUBSCRIBERS_PAGE_SIZE,
    counts,
  };
}

export async function deleteSubscriber(db: Db, userId: string, id: string): Promise<void> {
  if (!(await q.deleteSubscriberById(db, userId, id))) throw notFoundError(SUBSCRIBER_NOT_FOUND);
}

const emailSchema = z.email().max(320);
const INSERT_CHUNK = 10_000;
const shown = (value: string) => (value.length > 80 ? `${value.slice(0, 79)}…` : value);

/**
 * Imports another provider's export. The author must attest that these readers asked for their
 * mail (`consent`), else nothing happens. Valid new addresses become confirmed subscribers marked
 * imported; an address already on the list in any status is skipped, so a reader who
 * unsubscribed is never subscribed again; invalid addresses are reported by line. A file that is
 * too big, not CSV or has no email column changes nothing; the rows go in one transaction.
 */
export async function importSubscribers(
  db: Db,
  userId: string,
  input: { bytes: Uint8Array; consent: boolean },
): Promise<SubscriberImport> {
  if (!input.consent) throw new DomainError("required", IMPORT_MESSAGES.consent, { field: "consent" });
  if (input.bytes.byteLength > IMPORT_MAX_BYTES) {
    throw new DomainError("payload_too_large", IMPORT_MESSAGES.tooLarge, { field: "file" });
  }
  const text = decodeCsv(input.bytes);
  if (text === null) throw new DomainError("validation_failed", IMPORT_MESSAGES.notText, { field: "file" });
  const rows = parseCsv(
    text,
    IMPORT_MAX_ROWS,
    () => new DomainError("payload_too_large", IMPORT_MESSAGES.tooManyRows, { field: "file" }),
  );
  const [header, ...data] = rows;
  if (!header) throw new DomainError("validation_failed", IMPORT_MESSAGES.empty, { field: "file" });
  const column = emailColumn(header.cells);
  if (column === -1) throw new DomainError("validation_failed", IMPORT_MESSAGES.noEmailColumn, { field: "file" });
  if (data.length === 0) throw new DomainError("validation_failed", IMPORT_MESSAGES.empty, { field: "file" });

  const invalid: SubscriberImport["invalid"] = [];
  let invalidCount = 0;
  let repeated = 0;
  const seen = new Set<string>();
  for (const row of data) {
    const raw = (row.cells[column] ?? "").trim();
    const email = raw.toLowerCase();
    if (!emailSchema.safeParse(email).success) {
      invalidCount++;
      if (invalid.length < IMPORT_INVALID_SHOWN) invalid.push({ line: row.line, value: shown(raw) });
    } else if (seen.has(email)) repeated++;
    else seen.add(email);
  }
  const emails = [...seen];
  const now = new Date();
  const imported = await db.transaction(async (tx) => {
    let added = 0;
    for (let i = 0; i < emails.length; i += INSERT_CHUNK) {
      const chunk = emails.slice(i, i + INSERT_CHUNK).map((email) => ({
        email,
        // Never mailed (the address is confirmed already); the column is unique and required.
        confirmToken: randomBytes(24).toString("base64url"),
      }));
      added += await q.insertImported(tx, userId, chunk, now);
    }
    return added;
  });
  return { imported, alreadyOnList: emails.length - imported + repeated, invalidCount, invalid };
}
