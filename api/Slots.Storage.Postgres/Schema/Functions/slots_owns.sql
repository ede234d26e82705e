-- Whether the proof (phone or person hash) matches the reservation's owner.
CREATE OR REPLACE FUNCTION slots_owns(p_phone text, p_person text, r_phone text, r_person text)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT (p_phone IS NOT NULL AND p_phone = r_phone) OR (p_person IS NOT NULL AND p_person = r_person)
$$;
