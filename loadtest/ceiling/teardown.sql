-- Leaves the seeded tables as the seeder left them: the ceiling's seats free again, its room gone.
UPDATE hot_seats h SET code = NULL FROM ceiling_bookings b
WHERE h.place_id = b.place_id AND h.day = b.day AND h.start_minute = b.start_minute AND h.service_id = b.service_id
  AND h.seat_no = b.seat_no AND h.code = b.code;
DROP TABLE ceiling_bookings;
DROP SEQUENCE ceiling_codes;
