-- Cold: SMS sent (or given up), one row per outbox message id. The SMS consumer checks it before
-- sending, so a redelivered queue message is never sent twice. A disk table: it is written by
-- the consumer's interpreted SQL, never by a native proc.
IF OBJECT_ID(N'dbo.sms_sent', N'U') IS NULL
CREATE TABLE dbo.sms_sent (
    message_id bigint      NOT NULL,
    kind       int         NOT NULL,
    code       varchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL,
    status     int         NOT NULL, -- 1 sent, 2 given up (direct transport, after the last try)
    tries      int         NOT NULL,
    sent_at    bigint      NOT NULL,
    CONSTRAINT pk_sms_sent PRIMARY KEY CLUSTERED (message_id)
);
GO
