/**
 * A CANCELED message's `error`: who or what cancelled it (CONTRACT "Destinations", "Stopping
 * traffic": "its error naming the reason"). The re-check at release writes its own four
 * reasons in migrations/functions/cancel_stopped_messages.sql (the client's deletion, a blocked
 * destination, a destination outside allowedPrefixes, an opted-out recipient, also written by
 * opt_out_numbers); the SQL keeps those words, these are the
 * ones the calls hand to cancel_untaken_messages. cancel_messages (a scheduled single send's
 * cancel) writes OWNER's words itself.
 */
export const CANCEL_REASONS = {
  /** POST …/messages/{id}/cancel, POST …/batches/{batchId}/cancel. */
  owner: 'canceled by the owner',
  /** POST /api/admin/clients/{clientId}/messages/cancel. */
  staff: 'canceled by staff',
  /** DELETE /api/clients/{id}: the same words as the re-check's when it finds the client gone. */
  clientDeleted: 'canceled: the client was deleted',
} as const;
export type CancelReason = (typeof CANCEL_REASONS)[keyof typeof CANCEL_REASONS];
