-- The slot catalogue's key names the service (issue 41): two services of one place may start at the
-- same minute, each with its own seats. SQLite cannot change a WITHOUT ROWID table's primary key, so
-- the table is rebuilt under the new key, its rows copied, and the copy takes the old name. No table
-- refers to slots and no index is on it, so nothing else needs rebuilding. The key keeps the old
-- columns in front: a place's week stays one range read.
CREATE TABLE slots_by_service (
    place_id     INTEGER NOT NULL REFERENCES places (id),
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    minutes      INTEGER NOT NULL CHECK (minutes > 0),
    capacity     INTEGER NOT NULL CHECK (capacity >= 1),
    starts_at    INTEGER NOT NULL,
    closed_by    INTEGER NULL,
    service_id   INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (place_id, day, start_minute, service_id)
) WITHOUT ROWID;

INSERT INTO slots_by_service (place_id, day, start_minute, minutes, capacity, starts_at, closed_by, service_id)
SELECT place_id, day, start_minute, minutes, capacity, starts_at, closed_by, service_id FROM slots;

DROP TABLE slots;
ALTER TABLE slots_by_service RENAME TO slots;
