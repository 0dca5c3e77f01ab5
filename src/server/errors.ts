/** The one error class of the server; the error handler turns it into {statusCode, error, message}. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
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
export const conflict = (message: string) => new HttpError(409, message);
export const unprocessable = (message: string) => new HttpError(422, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, 'Too many failed login attempts. Try again later.', {
    'retry-after': String(retryAfterSeconds),
  });

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
