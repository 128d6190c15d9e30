// The one list of error codes the API answers with. Every error body is
// `{ error: { code, message, field?, issues? } }`: `message` is for the person (the spec's words),
// `code` is for the program — the app switches on codes, never on message text. A code, once
// shipped, keeps its meaning; add new ones rather than reuse.
export const API_ERROR_CODES = [
  // 400
  "bad_request", // a request the server cannot act on (an unknown action, say)
  "invalid_json", // the body is not JSON
  "validation_failed", // an input is invalid: `field` names the first, `issues` lists all
  "required", // a required input is blank (after cleaning): `field` names it
  "invalid_signature", // a webhook whose signature does not verify
  "invalid_token", // a link's token is unknown or used (verification, password reset)
  "token_expired", // a link's token is too old
  "invalid_code", // a wrong two-factor or backup code
  // 401
  "unauthenticated",
  "invalid_credentials", // wrong email or password
  "session_not_fresh", // sign in again before this (a sensitive change)
  // 403
  "forbidden",
  "cross_site_refused", // a state-changing request from another site
  "email_not_verified",
  "plan_limit_reached", // the plan's book limit
  // 404
  "not_found",
  // 409
  "conflict",
  "subdomain_taken",
  "domain_taken",
  "already_onboarded",
  "subscription_ended", // expired: reactivate first
  "checkout_required", // the payment step has not been completed
  "books_would_be_hidden", // a smaller plan would hide books: ask, then send confirmHiddenBooks
  // 413, 415, 429
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "sign_in_locked", // too many wrong passwords for one account: paused (Retry-After)
  "sending_limit_reached", // the account's newsletter mails for 24 hours would be exceeded: nothing queued
  // 5xx
  "internal_error",
  "payment_provider_failed",
  "mail_failed", // a mail we had to send now (a test mail) could not be sent
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export type ApiErrorIssue = { field: string; message: string };

export type ApiErrorBody = {
  error: { code: ApiErrorCode; message: string; field?: string; issues?: ApiErrorIssue[] };
};

/**
 * The HTTP status of each code: the one place a refusal gets its status. Services throw codes
 * (DomainError, ADR 058); the API's error handler answers with this status, and the public
 * renderer and jobs read the same table.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  required: 400,
  invalid_signature: 400,
  invalid_token: 400,
  token_expired: 400,
  invalid_code: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  session_not_fresh: 401,
  forbidden: 403,
  cross_site_refused: 403,
  email_not_verified: 403,
  plan_limit_reached: 403,
  not_found: 404,
  conflict: 409,
  subdomain_taken: 409,
  domain_taken: 409,
  already_onboarded: 409,
  subscription_ended: 409,
  checkout_required: 409,
  books_would_be_hidden: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  sign_in_locked: 429,
  sending_limit_reached: 429,
  internal_error: 500,
  payment_provider_failed: 502,
  mail_failed: 502,
} as const satisfies Record<ApiErrorCode, number>;

export type ErrorStatus = (typeof ERROR_STATUS)[ApiErrorCode];

/** The HTTP status a refusal with this code is answered with. */
export function statusOf(code: ApiErrorCode): ErrorStatus {
  return ERROR_STATUS[code];
}

/** The code an error has when nothing more specific was said: one per status. */
export function defaultErrorCode(status: number): ApiErrorCode {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthenticated";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 409:
      return "conflict";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 429:
      return "rate_limited";
    case 502:
      return "payment_provider_failed";
    default:
      return status >= 500 ? "internal_error" : "bad_request";
  }
}
