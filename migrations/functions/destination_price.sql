-- destination_price as it is now; its history before this file: migrations 015.
-- A change to it is a diff of this file (migrations/README.md).

-- The price list's entry with the longest prefix of the recipient's digits (none: no row). An
-- index probe on the primary key: the recipient's 1 to 15 leading digits are the candidates.
CREATE OR REPLACE FUNCTION destination_price(p_recipient text)
RETURNS TABLE (prefix text, name text, price_per_segment numeric, blocked boolean)
LANGUAGE sql STABLE AS $$
  SELECT p.prefix, p.name, p.price_per_segment, p.blocked
  FROM prices p
  WHERE p.prefix = ANY (ARRAY(
    SELECT left(d.digits, n)
    FROM (SELECT regexp_replace(p_recipient, '[^0-9]', '', 'g') AS digits) d,
         generate_series(1, least(15, length(d.digits))) AS n))
  ORDER BY length(p.prefix) DESC
  LIMIT 1
$$;
