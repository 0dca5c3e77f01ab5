/** Business constants of spec §9 and the server rules of CONTRACT.md. */

/** Page size of every list when the caller names none (spec: "count 30, offset 0"). */
export const DEFAULT_PAGE_SIZE = 30;
export const ADMIN_LARGE_PAGE_SIZE = 300;
export const MAX_PAGE_SIZE = 300;
export const MAX_CLIENTS_PER_USER = 30;
export const DEFAULT_ROUTE_WEIGHT = 10;
export const MAX_ROUTE_WEIGHT = 1000;
export const DELIVERY_METHODS = [
  'VONAGE_SMS',
  'MELROSE_SMPP',
  'WORLD_SPECIAL',
] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];
export const SECRET_MASK = '••••••';
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const MAX_SMS_SEGMENTS = 10;
export const RECIPIENT_MIN_DIGITS = 6;
export const RECIPIENT_MAX_DIGITS = 15;
/** Largest free-credit grant accepted in one call. */
export const MAX_CREDIT_AMOUNT = 1_000_000;
/** Decimal places kept for money (the database column is numeric(15,4)). */
export const MONEY_SCALE = 4;

export const MAX_CLIENTS_MESSAGE =
  'You have reach the maximum allowed number of clients.';

/** How Vonage may sign its webhooks (VONAGE_SIGNATURE_METHOD), as chosen in Vonage's dashboard. */
export const VONAGE_SIGNATURE_METHODS = [
  'md5hash',
  'md5',
  'sha1',
  'sha256',
  'sha512',
] as const;
export type VonageSignatureMethod = (typeof VONAGE_SIGNATURE_METHODS)[number];

/**
 * Status callbacks (CONTRACT "Status callbacks"): seconds to wait after failed try number n
 * (index n - 1) before the next one. The first retry comes within 30 s; then the delays grow
 * to 6 h, and the last try is made about 26 hours after the first. The console shows from it
 * when a failed event is tried next and how many tries are left.
 */
export const CALLBACK_RETRY_DELAYS_SECONDS: readonly number[] = [
  15, 60, 300, 900, 1_800, 3_600, 7_200, 14_400, 21_600, 21_600, 21_600,
];
/** Every try of one event: the first delivery and one per retry delay. */
export const CALLBACK_MAX_TRIES = CALLBACK_RETRY_DELAYS_SECONDS.length + 1;
