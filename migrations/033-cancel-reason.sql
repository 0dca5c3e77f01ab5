-- Stopping traffic (issue 30, CONTRACT "Destinations"): a message that becomes CANCELED carries
-- its reason in `error` (who or what cancelled it: the owner, staff, the client's deletion, a
-- blocked destination, the client's allowedPrefixes). Null for every other message: a provider's
-- words stay on its attempts (message_attempts.error).
ALTER TABLE messages ADD COLUMN error text;

-- refund_messages and cancel_untaken_messages take the reason as one more argument (defaulting
-- to null, so the callers that give none keep working); CREATE OR REPLACE cannot change a
-- signature: the old ones go here, their files create the new ones (migrations/README.md). On a
-- fresh database cancel_untaken_messages does not exist yet (only its file creates it).
DROP FUNCTION IF EXISTS refund_messages(uuid[], text, text);
DROP FUNCTION IF EXISTS cancel_untaken_messages(uuid[]);
