-- The waiting room (issue 16). An opening's counters live on its row; a join is one row per
-- person and opening; admissions are ranges of positions (waves), not rows per person; a booking
-- that uses an admission leaves one claim row. Instants are Unix seconds, except admitted_at,
-- advanced_at and credit_at_ms (milliseconds: admission times and rates are counted finer than a second).

CREATE TABLE waiting_room_openings (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    scope             TEXT    NOT NULL,            -- 'region:<name>' or 'places:<id>,<id>,…'
    opens_at          INTEGER NOT NULL,
    admit_per_second  REAL    NULL,                -- NULL: as fast as the seats allow
    admission_seconds INTEGER NOT NULL,
    abandon_allowance INTEGER NOT NULL,
    state             INTEGER NOT NULL,            -- 1 open, 2 closed
    created_at        INTEGER NOT NULL,
    closed_at         INTEGER NULL,
    joined            INTEGER NOT NULL DEFAULT 0,  -- tickets issued
    pre_queue         INTEGER NULL,                -- tickets issued before the opening; NULL until sealed
    shuffle_key       BLOB    NULL,                -- the pre-queue's permutation key, drawn when sealed
    served            INTEGER NOT NULL DEFAULT 0,  -- positions 1..served admitted
    seats_left        INTEGER NOT NULL DEFAULT 0,  -- free seats in the scope, as last counted
    advanced_at       INTEGER NULL,
    credit_at_ms      INTEGER NOT NULL DEFAULT 0,  -- the admit rate's credit runs from here
    version           INTEGER NOT NULL DEFAULT 0   -- guards the counter: a step is written only at the version it read
);
CREATE INDEX ix_waiting_room_openings_state ON waiting_room_openings (state, closed_at);

-- One ticket per person (the keyed hash of the national id) and opening.
CREATE TABLE waiting_room_joins (
    opening_id  INTEGER NOT NULL,
    person_hash TEXT    NOT NULL,
    ticket      INTEGER NOT NULL,
    joined_at   INTEGER NOT NULL,
    PRIMARY KEY (opening_id, person_hash)
) WITHOUT ROWID;
CREATE UNIQUE INDEX ux_waiting_room_joins_ticket ON waiting_room_joins (opening_id, ticket);

-- Positions [first_position, last_position] admitted at admitted_at (ms).
CREATE TABLE waiting_room_waves (
    opening_id     INTEGER NOT NULL,
    first_position INTEGER NOT NULL,
    last_position  INTEGER NOT NULL,
    admitted_at    INTEGER NOT NULL,
    PRIMARY KEY (opening_id, first_position)
) WITHOUT ROWID;
CREATE INDEX ix_waiting_room_waves_admitted ON waiting_room_waves (admitted_at);

-- An admission used by a booking (its idempotency key): one booking per admission.
CREATE TABLE waiting_room_claims (
    opening_id  INTEGER NOT NULL,
    ticket      INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    booking_key TEXT    NOT NULL,
    claimed_at  INTEGER NOT NULL,
    PRIMARY KEY (opening_id, ticket)
) WITHOUT ROWID;
CREATE INDEX ix_waiting_room_claims_position ON waiting_room_claims (opening_id, position);
