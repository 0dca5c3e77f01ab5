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
