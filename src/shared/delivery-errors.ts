/**
 * Why a delivery attempt did not end DELIVERED, normalised across providers: each provider says
 * it its own way (SMPP's command_status and its receipts' stat/err, Vonage's status and err-code,
 * the HTTP gateway's status), and the attempt keeps that text as `error`. `errorCode` is one of
 * the names below whatever the provider; `providerErrorCode` is the provider's own code beside
 * it. Read from the stored text, so every attempt ever recorded has them.
 */
export const DELIVERY_ERROR_CODES = {
  unknown_destination:
    'The number does not exist, is not in service or cannot be routed',
  unreachable:
    'The handset was off, out of coverage or busy, and the network gave up',
  blocked_by_carrier:
    "The carrier or the subscriber blocked it (barred number, spam or content filter, the subscriber's own bar)",
  expired: 'Not delivered within its validity period',
  rejected:
    'The provider refused the message itself (its text, sender or form)',
  throttled: 'The provider asked to slow down',
  provider_unavailable:
    'The provider could not be reached, did not answer in time, or failed',
  provider_error: 'Another error the provider reported',
} as const;
export type DeliveryErrorCode = keyof typeof DELIVERY_ERROR_CODES;
export const DELIVERY_ERROR_CODE_NAMES = Object.keys(DELIVERY_ERROR_CODES) as [
  DeliveryErrorCode,
  ...DeliveryErrorCode[],
];

/** Vonage delivery receipts' err-code (its DLR table). */
const VONAGE_RECEIPT: Record<string, DeliveryErrorCode> = {
  '1': 'provider_error',
  '2': 'unreachable',
  '3': 'unknown_destination',
  '4': 'blocked_by_carrier',
  '5': 'unknown_destination',
  '6': 'blocked_by_carrier',
  '7': 'unreachable',
  '8': 'unreachable',
  '9': 'unknown_destination',
  '10': 'rejected',
  '11': 'unknown_destination',
  '12': 'unreachable',
  '13': 'blocked_by_carrier',
  '14': 'blocked_by_carrier',
  '15': 'rejected',
  '16': 'throttled',
  '50': 'blocked_by_carrier',
  '51': 'blocked_by_carrier',
  '52': 'blocked_by_carrier',
  '53': 'blocked_by_carrier',
  '54': 'blocked_by_carrier',
  '99': 'provider_error',
};

/** Vonage's submit statuses (its SMS API table). */
const VONAGE_SUBMIT: Record<string, DeliveryErrorCode> = {
  '1': 'throttled',
  '2': 'rejected',
  '3': 'rejected',
  '5': 'provider_unavailable',
  '6': 'unknown_destination',
  '7': 'blocked_by_carrier',
  '10': 'provider_unavailable',
  '12': 'rejected',
  '15': 'rejected',
  '22': 'unknown_destination',
  '29': 'blocked_by_carrier',
  '33': 'unknown_destination',
};

/** SMPP command_status of a refused submit_sm (SMPP 3.4 §5.1.3). */
const SMPP_STATUS: Record<number, DeliveryErrorCode> = {
  0x01: 'rejected', // ESME_RINVMSGLEN
  0x08: 'provider_unavailable', // ESME_RSYSERR
  0x0a: 'rejected', // ESME_RINVSRCADR
  0x0b: 'unknown_destination', // ESME_RINVDSTADR
  0x14: 'throttled', // ESME_RMSGQFUL
  0x33: 'rejected', // ESME_RINVNUMDESTS
  0x45: 'rejected', // ESME_RSUBMITFAIL
  0x58: 'throttled', // ESME_RTHROTTLED
  0x64: 'provider_unavailable', // ESME_RX_T_APPN
  0x66: 'rejected', // ESME_RX_R_APPN
  0xfe: 'provider_unavailable', // ESME_RDELIVERYFAILURE
};

/** The attempt's state when nothing more precise is known. */
function byState(state: string): DeliveryErrorCode {
  switch (state) {
    case 'EXPIRED':
      return 'expired';
    case 'REJECTED':
    case 'REFUSED':
      return 'rejected';
    case 'UNDELIVERED':
      return 'unreachable';
    case 'FAILED':
    case 'UNAVAILABLE':
      return 'provider_unavailable';
    default:
      return 'provider_error';
  }
}

export interface DeliveryError {
  errorCode: DeliveryErrorCode;
  /** The provider's own code: `0x0b` (SMPP), `34` (a receipt's err), `status 7` (Vonage), … */
  providerErrorCode: string | null;
}

/**
 * The normalised error of an attempt (or message) in `state` whose provider said `error`; null
 * when there is no error (DELIVERED, or not final yet), and for a CANCELED message: no provider
 * had it, its `error` names who or what cancelled it (CONTRACT "Stopping traffic").
 */
export function deliveryError(
  method: string | null,
  state: string,
  error: string | null,
): DeliveryError | null {
  if (state === 'CANCELED') return null;
  if (error === null || error === '') {
    return ['DELIVERED', 'SUBMITTED', 'ACCEPTED', 'SCHEDULED'].includes(state)
      ? null
      : { errorCode: byState(state), providerErrorCode: null };
  }
  const fallback = byState(state);
  // A receipt's err (SMPP `stat err:034`, Vonage `failed err:14 (…)`).
  const receiptErr = /\berr:(\S+?)(?:\s|$)/.exec(error)?.[1];
  if (receiptErr && method === 'VONAGE_SMS') {
    const code = String(Number(receiptErr));
    return {
      errorCode: VONAGE_RECEIPT[code] ?? fallback,
      providerErrorCode: receiptErr,
    };
  }
  if (receiptErr) {
    // SMPP receipts' err values are each SMSC's own: the stat decides.
    return { errorCode: fallback, providerErrorCode: receiptErr };
  }
  const vonage = /\bVonage status (\d+)/.exec(error)?.[1];
  if (vonage) {
    return {
      errorCode: VONAGE_SUBMIT[vonage] ?? 'provider_error',
      providerErrorCode: `status ${vonage}`,
    };
  }
  const smpp = /^SMSC (?:refused|error):? (0x[0-9a-f]+)/i.exec(error)?.[1];
  if (smpp) {
    return {
      errorCode: SMPP_STATUS[Number(smpp)] ?? 'provider_error',
      providerErrorCode: smpp.toLowerCase(),
    };
  }
  const http = /\bHTTP (\d{3})\b/.exec(error)?.[1];
  if (http) {
    const status = Number(http);
    return {
      errorCode:
        status === 429
          ? 'throttled'
          : status >= 500
            ? 'provider_unavailable'
            : 'rejected',
      providerErrorCode: `HTTP ${http}`,
    };
  }
  if (/^invalid destination\b/.test(error)) {
    return { errorCode: 'unknown_destination', providerErrorCode: null };
  }
  if (/^invalid sender\b/.test(error)) {
    return { errorCode: 'rejected', providerErrorCode: null };
  }
  if (/^throttled\b/.test(error)) {
    return { errorCode: 'throttled', providerErrorCode: null };
  }
  // The gateway's receipt: `undelivered: absent subscriber`, or its status alone.
  const gateway = /^(undelivered|expired|rejected)\b/.exec(error)?.[1];
  if (gateway && method === 'WORLD_SPECIAL') {
    return { errorCode: fallback, providerErrorCode: gateway };
  }
  // An SMPP receipt's stat alone (UNDELIV, REJECTD, EXPIRED, …).
  const stat = /^([A-Z]{5,8})$/.exec(error)?.[1];
  return { errorCode: fallback, providerErrorCode: stat ?? null };
}

/** The two fields an attempt or a status callback carries beside its `error`. */
export function deliveryErrorFields(
  method: string | null,
  state: string,
  error: string | null,
): { errorCode: DeliveryErrorCode | null; providerErrorCode: string | null } {
  const found = deliveryError(method, state, error);
  return {
    errorCode: found?.errorCode ?? null,
    providerErrorCode: found?.providerErrorCode ?? null,
  };
}
