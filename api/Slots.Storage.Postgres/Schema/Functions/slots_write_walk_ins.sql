-- Walk-ins and bookings made on someone's behalf (issue 41, D7): the audit row of who made each
-- booking of p_ops that site staff made (p_by set), written in slots_apply's transaction with the
-- booking; p_sms false books without a confirmation SMS.
-- Until walk-ins land, every booking is the person's own and nothing is written.
CREATE OR REPLACE FUNCTION slots_write_walk_ins(p_ops integer[], p_place integer[], p_code text[], p_by text[],
                                                p_sms boolean[], p_now bigint[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RETURN;
END;
$$;
