-- slots_lower(text): the lower-casing the place search compares names with (SearchText.Lower in
-- the EF model). Not plain lower(): that follows the database's LC_CTYPE, and a database created
-- with C folds only ASCII, so 'Čakáreň' stayed 'Čakáreň' while the person's text arrived
-- lower-cased by .NET as 'čakáreň' and nothing was found. ICU's root locale folds every letter
-- whatever the database's locale. A server built without ICU has no "und-x-icu" and keeps the
-- database's lower(), right wherever LC_CTYPE is a UTF-8 locale.
-- A single-SELECT SQL function: the planner inlines it, so the search runs lower() directly.
DO $$
BEGIN
    CREATE OR REPLACE FUNCTION slots_lower(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$ SELECT lower($1 COLLATE "und-x-icu") $f$;
EXCEPTION WHEN undefined_object THEN
    CREATE OR REPLACE FUNCTION slots_lower(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$ SELECT lower($1) $f$;
END
$$;
