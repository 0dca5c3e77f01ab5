-- Opt-outs (issue 32; CONTRACT.md "Two-way messaging": Opt-outs). The rules are in
-- migrations/functions/ (opt_out_numbers, inbound_messages_keywords, and the checks in
-- send_sms_batch, create_batch and cancel_stopped_messages); this file holds what they need.

-- A keyword's auto-reply is the one message that may go to an opted-out recipient (the answer to
-- STOP itself). It names the inbound message it answers: the send and the release's re-check let
-- it through, and the unique index makes it once per inbound message however often its job runs.
ALTER TABLE messages ADD COLUMN reply_to uuid;
CREATE UNIQUE INDEX messages_reply_to_key ON messages (reply_to) WHERE reply_to IS NOT NULL;
