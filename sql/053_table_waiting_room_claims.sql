-- Hot: an admission used by a booking (its idempotency key, or 'move:' and the code of a
-- rescheduled reservation): one booking per admission; deleted again when the booking did not book.
IF OBJECT_ID(N'dbo.waiting_room_claims', N'U') IS NULL
CREATE TABLE dbo.waiting_room_claims (
    opening_id  bigint       NOT NULL,
    ticket      bigint       NOT NULL,
    position    bigint       NOT NULL,
    booking_key varchar(120) COLLATE Latin1_General_100_BIN2 NOT NULL,
    claimed_at  bigint       NOT NULL,
    CONSTRAINT pk_waiting_room_claims PRIMARY KEY NONCLUSTERED (opening_id, ticket),
    INDEX ix_waiting_room_claims_position NONCLUSTERED (opening_id, position)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
