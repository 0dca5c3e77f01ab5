-- message_json: the one writer of a Message's JSON text (the API's Message of
-- src/shared/schemas/messages.ts, which declares it; tests/api/features/messages/send-answer.test.ts checks these
-- bytes against what that schema's serializer writes). The answers of a send (send_sms_batch,
-- a replayed key included) and of a cancel are written here, in the database, and sent on as
-- they are.
--
-- The fields in the schema's order. Amounts: numeric(15, 4), and numeric(17, 6) below 1e9, have
-- at most 15 digits, which a JS number holds exactly and prints as trim_scale does; a larger
-- price per segment is printed as the double it becomes (its shortest digits, as JS prints
-- them). Dates in UTC, cut to the millisecond as a JS Date holds them.
CREATE OR REPLACE FUNCTION message_json(m messages) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT '{"id":' || to_json(m.id)::text
         || ',"clientId":' || to_json(m.client_id)::text
         || ',"sender":' || to_json(m.sender)::text
         || ',"recipient":' || to_json(m.recipient)::text
         || ',"body":' || to_json(m.body)::text
         || ',"reference":' || to_json(m.reference)::text
         || ',"state":' || to_json(m.state)::text
         || ',"error":' || coalesce(to_json(m.error)::text, 'null')
         || ',"deliveryMethod":' || coalesce(to_json(m.delivery_method)::text, 'null')
         || ',"simulated":' || to_json(m.simulated)::text
         || ',"encoding":' || to_json(m.encoding)::text
         || ',"segments":' || m.segments::text
         || ',"price":' || trim_scale(m.price)::text
         || ',"pricePerSegment":'
         || CASE WHEN m.price_per_segment < 1e9 THEN trim_scale(m.price_per_segment)::text
                 ELSE m.price_per_segment::float8::text END
         || ',"pricePrefix":' || coalesce(to_json(m.price_prefix)::text, 'null')
         || ',"currency":' || to_json(m.currency)::text
         || ',"batchId":' || coalesce(to_json(m.batch_id)::text, 'null')
         || ',"sendAt":'
         || coalesce('"' || to_char(m.send_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                     || '"', 'null')
         || ',"dateCreated":"'
         || to_char(m.date_created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         || '","dateUpdated":"'
         || to_char(m.date_updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         || '"}'
$$;
