import { errorCodeOfStatus, type ErrorCode } from '../shared/error-codes.ts';

/**
 * The one error class of the server; the error handler turns it into
 * {statusCode, error, code, message}. `code` (src/shared/error-codes.ts) defaults to the
 * status's; the named makers below give the specific ones.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly code: ErrorCode;

  constructor(
    statusCode: number,
    message: string,
    headers: Record<string, string> = {},
    code: ErrorCode = errorCodeOfStatus(statusCode),
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
    this.code = code;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Authentication required') =>
  new HttpError(401, message);
export const paymentRequired = (message: string) => new HttpError(402, message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new HttpError(403, message);
export const notFound = (what: string) =>
  new HttpError(404, `${what} not found`);
export const conflict = (
  message: string,
  code:
    | 'conflict'
    | 'email_taken'
    | 'client_limit_reached'
    | 'not_cancelable' = 'conflict',
) => new HttpError(409, message, {}, code);
export const unprocessable = (
  message: string,
  code:
    | 'unprocessable'
    | 'wrong_password'
    | 'idempotency_key_reused' = 'unprocessable',
) => new HttpError(422, message, {}, code);
/** A send to a destination the price list blocks, or outside the client's allowed prefixes. */
export const destinationRefused = (message: string, blocked: boolean) =>
  new HttpError(
    403,
    message,
    {},
    blocked ? 'destination_blocked' : 'destination_not_allowed',
  );
/** A send to a recipient opted out of the client's messages (CONTRACT "Two-way messaging"). */
export const optedOutRefused = (message: string) =>
  new HttpError(403, message, {}, 'recipient_opted_out');
/** 429 with the seconds to wait in Retry-After. */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { 'retry-after': String(retryAfterSeconds) });
export const tooManyRequests = (retryAfterSeconds: number) =>
  rateLimited(
    'Too many failed login attempts. Try again later.',
    retryAfterSeconds,
  );

/** PostgreSQL error code of a unique violation, from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return pgCode(error) === '23505';
}

export function pgCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return pgCode((error as { cause?: unknown }).cause);
}
