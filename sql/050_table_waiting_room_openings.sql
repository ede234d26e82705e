-- Hot: waiting-room openings and their serving counters (issue 16), beside the hot tables they
-- count. A join batch takes its tickets from the row and the counter job steps it every second:
-- memory-optimized, so those updates are new row versions (a racer gets 41302 at once and the
-- adapter retries) instead of latches on a disk page. Few rows: a range index on the id, no
-- bucket count to size. Counts are bigint, as on the other backends (one row reader serves all).
IF OBJECT_ID(N'dbo.waiting_room_openings', N'U') IS NULL
CREATE TABLE dbo.waiting_room_openings (
    id                bigint         IDENTITY(1, 1) NOT NULL,
    scope             nvarchar(max)  NOT NULL,   -- 'region:<name>' or 'places:<id>,<id>,…'
    opens_at          bigint         NOT NULL,   -- Unix seconds
    admit_per_second  float          NULL,       -- NULL: as fast as the seats allow
    admission_seconds bigint         NOT NULL,
    abandon_allowance bigint         NOT NULL,
    state             bigint         NOT NULL,   -- 1 open, 2 closed
    created_at        bigint         NOT NULL,
    closed_at         bigint         NULL,
    joined            bigint         NOT NULL CONSTRAINT df_waiting_room_openings_joined DEFAULT (0),
    pre_queue         bigint         NULL,       -- tickets issued before the opening; NULL until sealed
    shuffle_key       varbinary(32)  NULL,       -- the pre-queue's permutation key, drawn when sealed
    served            bigint         NOT NULL CONSTRAINT df_waiting_room_openings_served DEFAULT (0),
    seats_left        bigint         NOT NULL CONSTRAINT df_waiting_room_openings_seats DEFAULT (0),
    advanced_at       bigint         NULL,       -- Unix milliseconds
    credit_at_ms      bigint         NOT NULL CONSTRAINT df_waiting_room_openings_credit DEFAULT (0),
    version           bigint         NOT NULL CONSTRAINT df_waiting_room_openings_version DEFAULT (0),
    CONSTRAINT pk_waiting_room_openings PRIMARY KEY NONCLUSTERED (id),
    INDEX ix_waiting_room_openings_state NONCLUSTERED (state, closed_at)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
