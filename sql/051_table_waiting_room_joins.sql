-- Hot: one ticket per person (the keyed hash of the national id, never the id) and opening.
-- Range indexes: an opening can gather millions of joins, and a hash index would have to be
-- sized for the largest one up front (and fit Express's quota); a range index grows with the rows.
IF OBJECT_ID(N'dbo.waiting_room_joins', N'U') IS NULL
CREATE TABLE dbo.waiting_room_joins (
    opening_id  bigint      NOT NULL,
    person_hash varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    ticket      bigint      NOT NULL,
    joined_at   bigint      NOT NULL,
    CONSTRAINT pk_waiting_room_joins PRIMARY KEY NONCLUSTERED (opening_id, person_hash),
    -- Tickets are handed out under the opening row's write; this says so in the schema too.
    CONSTRAINT ux_waiting_room_joins_ticket UNIQUE NONCLUSTERED (opening_id, ticket)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
