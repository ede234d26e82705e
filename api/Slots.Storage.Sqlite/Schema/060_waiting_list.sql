-- The waiting list of a place: people who want a seat on some of its days when none is free. One
-- entry per person and place while waiting or offered (state 1 waiting, 2 offered a held seat,
-- 3 booked through the offer, 4 left: by link or by booking elsewhere, 5 let the hold expire).
-- token is the entry's secret, in the links of its SMS (never in a URL's path or a log).
CREATE TABLE waitlist (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    place_id    INTEGER NOT NULL,
    from_day    TEXT    NOT NULL,
    to_day      TEXT    NOT NULL,
    person_hash TEXT    NOT NULL,
    phone       TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    language    TEXT    NOT NULL,
    token       TEXT    NOT NULL UNIQUE,
    joined_at   INTEGER NOT NULL,
    state       INTEGER NOT NULL,
    decided_at  INTEGER NULL
);
CREATE UNIQUE INDEX ux_waitlist_person ON waitlist (place_id, person_hash) WHERE state IN (1, 2);
CREATE INDEX ix_waitlist_line ON waitlist (place_id, id) WHERE state IN (1, 2);

-- A seat held for one entry: the hot seat has hold 1 and offer_id the offer's id (090_seat_holds.sql)
-- until it is claimed (the seat becomes the booking's), expires or is withdrawn (offer_id back to
-- NULL: kept, waiting for the next in line). state 1 open, 2 claimed, 3 expired, 4 withdrawn.
CREATE TABLE waitlist_offers (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id     INTEGER NOT NULL,
    place_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    seat_no      INTEGER NOT NULL,
    offered_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    state        INTEGER NOT NULL,
    decided_at   INTEGER NULL,
    code         TEXT    NULL
);
CREATE INDEX ix_waitlist_offers_open ON waitlist_offers (expires_at) WHERE state = 1;
CREATE INDEX ix_waitlist_offers_entry ON waitlist_offers (entry_id);
