-- record_delivery as it is now; its history before this file: migrations 003, 010, 029.
-- A change to it is a diff of this file (migrations/README.md).

-- What the workers write, a batch at once in one statement: submit outcomes (with the messages no
-- method took), then receipts.
CREATE OR REPLACE FUNCTION record_delivery(p_outcomes jsonb, p_failed uuid[], p_receipts jsonb)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(p_outcomes) > 0 OR cardinality(p_failed) > 0 THEN
    PERFORM record_attempts(p_outcomes, p_failed);
  END IF;
  IF jsonb_array_length(p_receipts) > 0 THEN
    PERFORM apply_receipts(p_receipts);
  END IF;
END
$$;

-- record_delivery of 010, the receipts first offered to record_attempts (record_attempts.sql).
CREATE OR REPLACE FUNCTION record_delivery(p_outcomes jsonb, p_failed uuid[], p_receipts jsonb,
                                           p_deferred jsonb)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  rest jsonb := p_receipts;
BEGIN
  IF jsonb_array_length(p_outcomes) > 0 OR cardinality(p_failed) > 0 THEN
    rest := record_attempts(p_outcomes, p_failed, p_receipts);
  END IF;
  IF jsonb_array_length(p_deferred) > 0 THEN
    PERFORM defer_delivery(p_deferred);
  END IF;
  IF jsonb_array_length(rest) > 0 THEN
    PERFORM apply_receipts(rest);
  END IF;
END
$$;
