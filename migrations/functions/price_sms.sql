-- price_sms as it is now; its history before this file: migrations 015.
-- A change to it is a diff of this file (migrations/README.md).

-- What a send of p_segments to p_recipient costs and whether a client with p_allowed (its
-- allowed_prefixes) may send it: the one place the send (accept_sms) and the quote compute both.
-- refusal: 'blocked' (the destination is closed to everyone), 'not-allowed' (outside the client's
-- allowed prefixes) or null. price_prefix null: the default price p_default_price (SMS_PRICE).
CREATE OR REPLACE FUNCTION price_sms(p_recipient text, p_segments integer, p_default_price numeric,
                          p_allowed text[])
RETURNS TABLE (price_prefix text, price_name text, price_per_segment numeric, amount numeric,
               refusal text)
LANGUAGE sql STABLE AS $$
  SELECT dp.prefix, dp.name, COALESCE(dp.price_per_segment, p_default_price),
         sms_amount(p_segments, COALESCE(dp.price_per_segment, p_default_price)),
         CASE
           WHEN dp.blocked THEN 'blocked'
           WHEN p_allowed IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM unnest(p_allowed) AS a(prefix)
             WHERE starts_with(regexp_replace(p_recipient, '[^0-9]', '', 'g'), a.prefix))
             THEN 'not-allowed'
         END
  FROM (SELECT 1) one LEFT JOIN destination_price(p_recipient) dp ON true
$$;
