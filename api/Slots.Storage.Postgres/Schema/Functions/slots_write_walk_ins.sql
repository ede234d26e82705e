-- Walk-ins and bookings made on someone's behalf (issue 41, D7): the audit row of who made each
-- booking of p_ops (the operations booked in this batch whose p_by is set: site staff at the door or
-- on the phone), written in slots_apply's transaction with the booking, so a booking made by staff
-- never stands without it. The trail's action is walk-in, its target the booking's code, its reason
-- whether the confirmation SMS went (sms) or not (no-sms); slots_apply writes sms_pending from p_sms.
CREATE OR REPLACE FUNCTION slots_write_walk_ins(p_ops integer[], p_place integer[], p_code text[], p_by text[],
                                                p_sms boolean[], p_now bigint[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO staff_audit (at, actor, place_id, action, target, reason)
    SELECT p_now[t], p_by[t], p_place[t], 'walk-in', p_code[t], CASE WHEN coalesce(p_sms[t], true) THEN 'sms' ELSE 'no-sms' END
    FROM unnest(p_ops) AS t
    WHERE p_by[t] IS NOT NULL
    ORDER BY t
$$;
