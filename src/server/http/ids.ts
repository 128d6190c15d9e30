// Ids in request paths: one that cannot be a row's is simply not found (and never reaches the
// database); one that can is read lower-case, as the database writes it.
import { isUuid } from "../../shared/ids.ts";
import type { DomainError } from "../lib/domain-error.ts";

export function idParam(raw: string | undefined, notFound: () => DomainError): string {
  if (!isUuid(raw)) throw notFound();
  return raw.toLowerCase();
}
