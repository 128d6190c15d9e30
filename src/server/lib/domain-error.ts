// What a service (or anything under lib) throws when it refuses: one of our error codes
// (src/shared/api-errors.ts), words for the person, and optionally the field at fault. It knows
// nothing of HTTP: the API's error handler gives it a status through `statusOf(code)` (the one
// table, next to the codes), the public renderer and jobs read the same code. ADR 058.
import type { ApiErrorCode, ApiErrorIssue } from "../../shared/api-errors.ts";

export type DomainErrorDetails = {
  /** The input at fault, as the client named it ("title", "domain", "file"). */
  field?: string | undefined;
  /** Every bad input, when there are several (a validation failure). */
  issues?: ApiErrorIssue[] | undefined;
};

/** A refusal whose message is safe and useful to show to the person who caused it. */
export class DomainError extends Error {
  readonly field: string | undefined;
  readonly issues: ApiErrorIssue[] | undefined;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.field = details.field;
    this.issues = details.issues;
  }
}

/**
 * How a reader's form went, for a page that shows the form again rather than throw: taken, or
 * refused with one of our codes and words for the reader. The public renderer gives it a status
 * through `statusOf(code)`, like a thrown DomainError's.
 */
export type FormOutcome = { ok: true } | { ok: false; code: ApiErrorCode; error: string | undefined };

/** Too many attempts: says when to try again (the API answers it with Retry-After, in seconds). */
export class RateLimited extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    details: DomainErrorDetails = {},
  ) {
    super("rate_limited", message, details);
    this.name = "RateLimited";
  }
}

/** "in a minute", "in 12 minutes": a wait told to a person. */
export function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "in a minute" : `in ${minutes} minutes`;
}

/** The usual refusals, by what they mean. */
export const notFoundError = (message = "Not found", details?: DomainErrorDetails) =>
  new DomainError("not_found", message, details);
export const conflictError = (message: string, details?: DomainErrorDetails) =>
  new DomainError("conflict", message, details);
export const forbiddenError = (message: string, details?: DomainErrorDetails) =>
  new DomainError("forbidden", message, details);
