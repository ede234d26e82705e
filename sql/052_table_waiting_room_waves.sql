-- Hot: admissions as ranges of positions, [first_position, last_position] admitted at
-- admitted_at (Unix milliseconds): one row per counter step, not one per person admitted.
IF OBJECT_ID(N'dbo.waiting_room_waves', N'U') IS NULL
CREATE TABLE dbo.waiting_room_waves (
    opening_id     bigint NOT NULL,
    first_position bigint NOT NULL,
    last_position  bigint NOT NULL,
    admitted_at    bigint NOT NULL,
    CONSTRAINT pk_waiting_room_waves PRIMARY KEY NONCLUSTERED (opening_id, first_position),
    INDEX ix_waiting_room_waves_admitted NONCLUSTERED (admitted_at)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
