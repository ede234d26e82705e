-- The ceiling's scratch room (`Slots.LoadTest bench`, Bench/Ceiling.cs): its own booking table, beside the seeded
-- hot_seats and apart from the product's tables. teardown.sql drops it and frees the seats it took.
SET client_min_messages = warning;
DROP TABLE IF EXISTS ceiling_bookings;
DROP SEQUENCE IF EXISTS ceiling_codes;
CREATE SEQUENCE ceiling_codes;
-- A booking row with the three indexes a booking needs: its code, one per person and service, and the
-- slot's (a slot is a place, a day, a time and a service, as in hot_seats' key).
CREATE TABLE ceiling_bookings (
    code         text    PRIMARY KEY,
    person       text    NOT NULL,
    place_id     integer NOT NULL,
    day          date    NOT NULL,
    start_minute integer NOT NULL,
    service_id   integer NOT NULL,
    seat_no      integer NOT NULL,
    UNIQUE (person, service_id)
);
CREATE INDEX ceiling_bookings_slot ON ceiling_bookings (place_id, day, start_minute, service_id);
