/**
 * One try of a callback (the test event, a try of a message's event or of an inbound message's)
 * told as a sentence. The server reports what happened in its own terms ("receiver unreachable:
 * DEPTH_ZERO_SELF_SIGNED_CERT self-signed certificate"); users read what it means for their
 * endpoint.
 */
export interface CallbackTry {
  /** The endpoint's HTTP status; null when it did not answer or was not called. */
  status: number | null;
  /** Null for a 2xx answer. */
  error: string | null;
  durationMs?: number;
}

/** Node's connection error codes, as what they mean for the endpoint. */
const UNREACHABLE_REASONS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  CERT_NOT_YET_VALID: 'its TLS certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'the TLS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate is not trusted',
  UNABLE_TO_GET_ISSUER_CERT: 'the TLS certificate is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the TLS certificate is not trusted',
  CERT_UNTRUSTED: 'the TLS certificate is not trusted',
  CERT_REVOKED: 'its TLS certificate has been revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
  EPROTO: 'the TLS handshake failed (does it serve https on that port?)',
  ECONNREFUSED:
    'it refused the connection (is anything listening on that port?)',
  ECONNRESET: 'it closed the connection before answering',
  EHOSTUNREACH: 'its host cannot be reached',
  ENETUNREACH: 'its network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name does not resolve',
};

const UNREACHABLE = /^receiver unreachable: (?:([A-Z][A-Z0-9_]+) )?/;
const NO_ANSWER = /^no answer within (.+)$/;
/** The target checks name the API's field: users know it by the form's label. */
const TARGET_FIELD = /^(statusCallbackUrl|inboundCallbackUrl)\b/;
const FIELD_NAMES: Record<string, string> = {
  statusCallbackUrl: 'the status callback URL',
  inboundCallbackUrl: 'the inbound callback URL',
};

export function callbackOutcome({ status, error, durationMs }: CallbackTry) {
  const within = durationMs === undefined ? '' : ` in ${durationMs} ms`;
  if (status !== null && status >= 200 && status < 300) {
    return `Your endpoint answered ${status}${within}.`;
  }
  if (status !== null && status >= 300 && status < 400) {
    return `Your endpoint answered ${status}${within}, a redirect: redirects are not followed, answer with a 2xx status.`;
  }
  if (status !== null) {
    return `Your endpoint answered ${status}${within}: only a 2xx status counts as received.`;
  }
  if (error === null) return 'Your endpoint did not answer.';
  const noAnswer = NO_ANSWER.exec(error);
  if (noAnswer) return `Your endpoint did not answer within ${noAnswer[1]}.`;
  const unreachable = UNREACHABLE.exec(error);
  if (unreachable) {
    const reason =
      (unreachable[1] && UNREACHABLE_REASONS[unreachable[1]]) ??
      'the connection failed';
    return `We could not reach your endpoint: ${reason}.`;
  }
  const field = TARGET_FIELD.exec(error);
  if (field) {
    return `We did not call your endpoint: ${error.replace(TARGET_FIELD, FIELD_NAMES[field[1]!]!)}.`;
  }
  return `We could not deliver to your endpoint: ${error}.`;
}
