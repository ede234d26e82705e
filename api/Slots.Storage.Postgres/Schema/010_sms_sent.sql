-- SMS sent (or given up), one row per outbox message id: a redelivered queue message whose id
-- is here is acknowledged without sending again. Written right after the gateway accepted it.
CREATE TABLE sms_sent (
    message_id bigint  NOT NULL PRIMARY KEY,
    kind       integer NOT NULL,
    code       text    NOT NULL,
    status     integer NOT NULL,  -- 1 sent, 2 given up (direct transport, after the last try)
    tries      integer NOT NULL,
    sent_at    bigint  NOT NULL
);
