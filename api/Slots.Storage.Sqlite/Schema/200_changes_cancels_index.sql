-- The roster reads a day's cancels that still wait for the flush (kind 2) by place and day, as on PostgreSQL (its 204):
-- an index of the cancels alone, so the read does not scan every pending change and a booking's change writes no entry.
CREATE INDEX IF NOT EXISTS ix_changes_cancels ON changes (place_id, day) WHERE kind = 2;
