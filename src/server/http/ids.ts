// Ids in request paths: one that cannot be a row's is simply not found (and never reaches the
// database); one that can is read lower-case, as the database writes it.
import { isUuid } from "../../shared/ids.ts";
import type { HttpError } from "./errors.ts";

export function idParam(raw: string | undefined, notFound: () => HttpError): string {
  if (!isUuid(raw)) throw notFound();
  return raw.toLowerCase();
}
