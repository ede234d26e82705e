-- The second doses of the pairs in a batch (issue 41, D6), inside slots_apply after the first
-- doses' seats: for each operation of p_ops with a second dose (p_code2 set), the earliest free
-- seat of the same service at the place between p_day2_from and p_day2_to, at p_minute2 (hot days
-- through SKIP LOCKED seat waves, disk days under the slot's row lock). Answers the day and time
-- each pair's second dose got, and in o_failed the pairs that found none: slots_apply gives their
-- first seat and person row back and answers them SecondDoseFull.
-- Until pairs land, no booking has a second dose.
CREATE OR REPLACE FUNCTION slots_seat_second_doses(p_ops integer[], p_place integer[], p_service integer[], p_code2 text[],
                                                   p_day2_from date[], p_day2_to date[], p_minute2 integer[], p_now bigint[],
                                                   OUT o_failed integer[], OUT o_day2 date[], OUT o_minute2 integer[])
LANGUAGE sql STABLE AS $$
    SELECT '{}'::integer[], NULL::date[], NULL::integer[]
$$;
