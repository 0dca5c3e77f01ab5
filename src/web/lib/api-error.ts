/** A non-ok answer of the API, raised by the feature api functions. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(messageOf(status, body));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

function messageOf(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  return `Request failed with status ${status}`;
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return (
    error instanceof ApiError &&
    (status === undefined || error.status === status)
  );
}

/** What to tell the user about a failed call: the server's message, or that it was unreachable. */
export function errorText(error: unknown): string {
  return isApiError(error)
    ? error.message
    : 'The server could not be reached. Please try again.';
}

/** Why a send (one SMS or a batch) failed: 402 in the spec's words, else the server's reason. */
export function sendFailureText(error: unknown): string {
  return isApiError(error, 402)
    ? 'Failed to send. Not enough Balance.'
    : errorText(error);
}
