-- inbound_keyword: the opt-out keyword group of an inbound body (CONTRACT "Two-way messaging":
-- Opt-outs), the SQL twin of keywordOf in src/shared/keywords.ts, for messages joined from
-- parts in the database. One list: src/server/inbound/keyword-sql.test.ts checks that the words
-- below are KEYWORD_GROUPS, and tests/api/features/inbound/inbound-keyword.test.ts that both
-- answer alike, edge cases included.
--
-- keywordOf trims JavaScript's white space (the characters below), refuses a word over 11
-- characters and upper-cases with JavaScript's full case mapping. PostgreSQL's upper() follows
-- the database's locale (Turkish would make 'i' 'İ'), so the letters are mapped here instead:
-- a-z, and the only other characters JavaScript upper-cases to ASCII letters (ß, ı, ſ and the
-- Latin ligatures of U+FB00–U+FB06). Any other character stays what it is in both: no keyword.

CREATE OR REPLACE FUNCTION inbound_keyword(p_body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN char_length(w) BETWEEN 1 AND 11 THEN
    '{"STOP": "STOP", "STOPALL": "STOP", "UNSUBSCRIBE": "STOP", "CANCEL": "STOP", "END": "STOP",
      "QUIT": "STOP", "START": "START", "YES": "START", "UNSTOP": "START", "HELP": "HELP",
      "INFO": "HELP"}'::jsonb ->> translate(
        replace(replace(replace(replace(replace(replace(replace(replace(w,
          E'\u00DF', 'SS'), E'\uFB00', 'FF'), E'\uFB01', 'FI'), E'\uFB02', 'FL'),
          E'\uFB03', 'FFI'), E'\uFB04', 'FFL'), E'\uFB05', 'ST'), E'\uFB06', 'ST'),
        E'abcdefghijklmnopqrstuvwxyz\u0131\u017F', 'ABCDEFGHIJKLMNOPQRSTUVWXYZIS')
  END
  FROM (SELECT btrim(p_body, E'\t\n\u000B\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF') AS w) trimmed
$$;
