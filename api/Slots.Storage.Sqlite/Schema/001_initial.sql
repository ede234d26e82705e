-- Slots on SQLite: the embedded default. Disk tables and hot tables live in one file; the split
-- mirrors SQL Server's (memory-optimized hot window, disk history) so every backend behaves alike.
-- Instants are Unix seconds (INTEGER); days are 'yyyy-MM-dd' TEXT; times are minutes after local midnight.

CREATE TABLE places (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    address     TEXT    NOT NULL,
    region      TEXT    NOT NULL,
    time_zone   TEXT    NOT NULL,
    active      INTEGER NOT NULL DEFAULT 1,
    hot_until   TEXT    NOT NULL          -- window horizon: days before it are in the hot tables
);
CREATE INDEX ix_places_region_name ON places (region, name);

-- Disk: the slot catalogue, every slot ever generated.
CREATE TABLE slots (
    place_id     INTEGER NOT NULL REFERENCES places (id),
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    minutes      INTEGER NOT NULL CHECK (minutes > 0),
    capacity     INTEGER NOT NULL CHECK (capacity >= 1),
    starts_at    INTEGER NOT NULL,
    PRIMARY KEY (place_id, day, start_minute)
) WITHOUT ROWID;

-- Disk: reservation history, fed by the flush of change records.
CREATE TABLE reservations (
    code         TEXT    NOT NULL PRIMARY KEY,
    place_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    seat_no      INTEGER NOT NULL,
    person_hash  TEXT    NOT NULL,
    phone        TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    language     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    cancelled_at INTEGER NULL,
    updated_at   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ix_reservations_slot ON reservations (place_id, day, start_minute);

-- Hot: one row per seat of every slot inside the window. The primary key is the availability
-- scan order (place, day, time), so a week at one place is one range read.
CREATE TABLE hot_seats (
    place_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    seat_no      INTEGER NOT NULL,
    minutes      INTEGER NOT NULL,
    starts_at    INTEGER NOT NULL,
    code         TEXT    NULL,
    PRIMARY KEY (place_id, day, start_minute, seat_no)
) WITHOUT ROWID;

-- Hot: active reservations inside the window, by code.
CREATE TABLE hot_reservations (
    code         TEXT    NOT NULL PRIMARY KEY,
    place_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    seat_no      INTEGER NOT NULL,
    minutes      INTEGER NOT NULL,
    starts_at    INTEGER NOT NULL,
    person_hash  TEXT    NOT NULL,
    phone        TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    language     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL
) WITHOUT ROWID;

-- Hot: who holds an active future reservation (hot or cold path). One row per person.
CREATE TABLE active_persons (
    person_hash TEXT    NOT NULL PRIMARY KEY,
    code        TEXT    NOT NULL,
    ends_at     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ix_active_persons_code ON active_persons (code);

-- Hot: idempotency keys with the answer they got; kept at least 24 hours.
CREATE TABLE idempotency (
    key         TEXT    NOT NULL PRIMARY KEY,
    fingerprint TEXT    NOT NULL,
    outcome     INTEGER NOT NULL,
    code        TEXT    NULL,
    created_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ix_idempotency_created ON idempotency (created_at);

-- Hot: SMS outbox, written in the same transaction as the booking change.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         INTEGER NOT NULL,
    code         TEXT    NOT NULL,
    phone        TEXT    NOT NULL,
    language     TEXT    NOT NULL,
    place_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    sent_at      INTEGER NULL
);
CREATE INDEX ix_outbox_unsent ON outbox (id) WHERE sent_at IS NULL;

-- Hot: changes waiting for the flush to the disk tables; drained in id order.
CREATE TABLE changes (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         INTEGER NOT NULL,
    code         TEXT    NOT NULL,
    place_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    seat_no      INTEGER NOT NULL,
    person_hash  TEXT    NOT NULL,
    phone        TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    language     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    at           INTEGER NOT NULL
);
