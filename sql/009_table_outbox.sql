-- Hot: SMS outbox, written in the same atomic block as the booking change it announces.
-- Memory-optimized tables have no filtered indexes: (sent_at, id) puts the unsent rows (NULL
-- sorts first) at the front of the range index, in id order.
IF OBJECT_ID(N'dbo.outbox', N'U') IS NULL
CREATE TABLE dbo.outbox (
    id           bigint      IDENTITY(1, 1) NOT NULL,
    kind         int         NOT NULL,
    code         varchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL,
    phone        varchar(16) NOT NULL,
    language     varchar(8)  NOT NULL,
    place_id     int         NOT NULL,
    day          date        NOT NULL,
    start_minute int         NOT NULL,
    created_at   bigint      NOT NULL,
    sent_at      bigint      NULL,
    CONSTRAINT pk_outbox PRIMARY KEY NONCLUSTERED (id),
    INDEX ix_outbox_unsent NONCLUSTERED (sent_at, id)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
