-- One pgbench transaction: :batch bookings as one set-based statement (what the hot path could do at
-- best on this server): random slots of the seeded supply (places :first … :last, tomorrow and the 27
-- days after, the seeded times 08:00 … 16:15 every 15 min, the default service 1, which the seeder
-- writes), sorted so writers lock seats in one order,
-- the lowest free seat of each taken if nobody holds it (a slot with no free seat books nothing), and
-- a booking row for each seat taken. Durable: the server runs with fsync and synchronous_commit on.
WITH picks AS (
    SELECT DISTINCT :first::integer + floor(random() * (:last::integer - :first::integer + 1))::integer AS place_id,
           current_date + 1 + floor(random() * 28)::integer AS day,
           480 + 15 * floor(random() * 34)::integer AS start_minute,
           1 AS service_id
    FROM generate_series(1, :batch::integer)
    ORDER BY 1, 2, 3, 4
), seats AS (
    SELECT f.place_id, f.day, f.start_minute, f.service_id, f.seat_no
    FROM picks p
    CROSS JOIN LATERAL (
        SELECT h.place_id, h.day, h.start_minute, h.service_id, h.seat_no
        FROM hot_seats h
        WHERE h.place_id = p.place_id AND h.day = p.day AND h.start_minute = p.start_minute
          AND h.service_id = p.service_id AND h.code IS NULL
        ORDER BY h.seat_no
        LIMIT 1
        FOR UPDATE SKIP LOCKED) f
), taken AS (
    UPDATE hot_seats h SET code = 'CEIL' || nextval('ceiling_codes')
    FROM seats s
    WHERE h.place_id = s.place_id AND h.day = s.day AND h.start_minute = s.start_minute AND h.service_id = s.service_id
      AND h.seat_no = s.seat_no AND h.code IS NULL
    RETURNING h.code, h.place_id, h.day, h.start_minute, h.service_id, h.seat_no
)
INSERT INTO ceiling_bookings (code, person, place_id, day, start_minute, service_id, seat_no)
SELECT code, 'person-' || code, place_id, day, start_minute, service_id, seat_no FROM taken;
