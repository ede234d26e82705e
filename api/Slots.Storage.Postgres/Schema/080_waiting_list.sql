-- The waiting list of a place: people who want a seat on some of its days when none is free. One
-- entry per person and place while waiting or offered (state 1 waiting, 2 offered a held seat,
-- 3 booked through the offer, 4 left: by link or by booking elsewhere, 5 let the hold expire).
-- token is the entry's secret, in the links of its SMS (never in a URL's path or a log).
CREATE TABLE IF NOT EXISTS waitlist (
    id          bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    place_id    integer NOT NULL,
    from_day    date    NOT NULL,
    to_day      date    NOT NULL,
    person_hash text    NOT NULL,
    phone       text    NOT NULL,
    name        text    NOT NULL,
    language    text    NOT NULL,
    token       text    NOT NULL UNIQUE,
    joined_at   bigint  NOT NULL,
    state       smallint NOT NULL,
    decided_at  bigint  NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS ux_waitlist_person ON waitlist (place_id, person_hash) WHERE state IN (1, 2);
CREATE INDEX IF NOT EXISTS ix_waitlist_line ON waitlist (place_id, id) WHERE state IN (1, 2);

-- A seat held for one entry: the hot seat has hold 1 and offer_id the offer's id (120_seat_holds.sql)
-- until it is claimed (the seat becomes the booking's), expires or is withdrawn (offer_id back to
-- NULL: kept, waiting for the next in line). state 1 open, 2 claimed, 3 expired, 4 withdrawn.
CREATE TABLE IF NOT EXISTS waitlist_offers (
    id           bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id     bigint  NOT NULL,
    place_id     integer NOT NULL,
    day          date    NOT NULL,
    start_minute integer NOT NULL,
    seat_no      integer NOT NULL,
    offered_at   bigint  NOT NULL,
    expires_at   bigint  NOT NULL,
    state        smallint NOT NULL,
    decided_at   bigint  NULL,
    code         text    NULL     -- the booking a claim made
);
CREATE INDEX IF NOT EXISTS ix_waitlist_offers_open ON waitlist_offers (expires_at) WHERE state = 1;
CREATE INDEX IF NOT EXISTS ix_waitlist_offers_entry ON waitlist_offers (entry_id);
