-- sms_amount as it is now; its history before this file: migrations 015.
-- A change to it is a diff of this file (migrations/README.md).

-- The amount of a message, in one place: segments × price per segment, rounded to the balance's
-- scale (4 decimal places, MONEY_SCALE) half up (numeric round() rounds half away from zero, and
-- amounts are never negative). The amount is what the ledger and the balance move by, so the
-- ledger sums to the balance whatever the prices.
CREATE OR REPLACE FUNCTION sms_amount(p_segments integer, p_price_per_segment numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT round(p_segments * p_price_per_segment, 4)
$$;
