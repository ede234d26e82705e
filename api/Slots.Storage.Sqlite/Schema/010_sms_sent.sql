-- SMS sent (or given up), one row per outbox message id: a redelivered queue message whose id
-- is here is acknowledged without sending again. Written right after the gateway accepted it.
CREATE TABLE sms_sent (
    message_id INTEGER NOT NULL PRIMARY KEY,
    kind       INTEGER NOT NULL,
    code       TEXT    NOT NULL,
    status     INTEGER NOT NULL,  -- 1 sent, 2 given up (direct transport, after the last try)
    tries      INTEGER NOT NULL,
    sent_at    INTEGER NOT NULL
);
