/**
 * What features may use of delivery: the provider webhooks' checks and readers, and the status
 * callback's target check and POST (for "Send test event"). Everything else in delivery/ is
 * its own (the engine, the connectors' sockets, the queue); features reach the send path only
 * through SQL (send_sms_batch queues the job). Lint holds features to this module.
 */
export { callbackBody } from './callbacks/body.ts';
export { postCallback } from './callbacks/send.ts';
export { resolveCallbackTarget } from './callbacks/target.ts';
export { strictFormFields } from './receipt-fields.ts';
export {
  parseVonageReceipt,
  verifyVonageSignature,
  vonageFields,
  vonageTimestampProblem,
} from './vonage/connector.ts';
export {
  VONAGE_RECEIPT_PATH,
  GENERIC_GATEWAY_RECEIPT_PATH,
} from './webhook-paths.ts';
export {
  bearerMatches,
  parseGenericGatewayReceipt,
} from './generic-gateway/connector.ts';
