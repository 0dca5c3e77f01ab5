/**
 * The stable `code` of every error answer, beside its human `message` (whose wording may change
 * and is English only): what an integrator's program branches on. Listed with their meanings in
 * the README ("API for integrators") and as an enum in the OpenAPI description. New codes may be
 * added; a code is never renamed or reused for another meaning.
 */
export const ERROR_CODES = {
  validation_failed:
    'A field or parameter breaks a rule (400); `message` names the field and the rule',
  bad_request:
    'The request could not be read (400): malformed JSON, or a body where none is taken',
  unauthorized:
    'Missing or wrong credentials (401): HTTP Basic with e-mail and password, or client id and secret',
  insufficient_balance:
    'The balance is too low for this send (402); nothing was charged',
  forbidden:
    'The caller may not do this (403): a role is missing, or an API client called a user-only route',
  destination_blocked:
    'The destination is blocked in the price list (403); nothing was charged',
  destination_not_allowed:
    "A destination is outside the client's allowed prefixes, or (batches) blocked (403); nothing was charged",
  not_found:
    'The resource does not exist or is not yours (404), or the route does not exist',
  conflict: 'The request conflicts with the current state (409)',
  email_taken: 'Another user already has this e-mail address (409)',
  client_limit_reached:
    'The user already has the maximum number of API clients (409)',
  not_cancelable:
    'The message is no longer SCHEDULED, so it cannot be cancelled (409)',
  payload_too_large: 'The request body is too large (413)',
  unsupported_media_type:
    'The body has a content type this call does not take (415)',
  idempotency_key_reused:
    'This Idempotency-Key was already used with a different request (422)',
  wrong_password: 'The current password is wrong (422)',
  unprocessable: 'The request is well-formed but cannot be carried out (422)',
  rate_limited:
    'Too many requests (429): wait the seconds of the Retry-After header, then try again',
  internal_error:
    'An unexpected server error (500); its message holds the request id to report',
  unavailable:
    'The service is temporarily unavailable (503): wait Retry-After seconds',
  recipient_opted_out:
    "The recipient opted out of this client's messages (403); nothing was charged",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [
  ErrorCode,
  ...ErrorCode[],
];

/** The code of an error answer nothing more specific names: by its status. */
export function errorCodeOfStatus(statusCode: number): ErrorCode {
  switch (statusCode) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'unauthorized';
    case 402:
      return 'insufficient_balance';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'unprocessable';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return statusCode >= 500 ? 'internal_error' : 'bad_request';
  }
}
