/** The receipt webhooks given to the HTTP providers (CONTRACT.md "Delivery"), after PUBLIC_URL. */
export const VONAGE_RECEIPT_PATH = '/api/webhooks/vonage/dlr';
export const GENERIC_GATEWAY_RECEIPT_PATH = '/api/webhooks/world-special/dlr';
