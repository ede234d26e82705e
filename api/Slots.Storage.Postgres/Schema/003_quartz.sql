-- Quartz.NET's ADO.NET job store (Quartz 4.7): the tables the clustered scheduler keeps its jobs,
-- triggers, firings, locks and node check-ins in. Laid out as Quartz.NET documents them (its
-- AdoJobStore table layout, table prefix qrtz_); PostgreSQL folds Quartz's upper-case names to
-- these. Quartz's optional execution-history tables are not used and not created.
-- Times are ticks (bigint), flags boolean, serialized job data bytea (the JSON serializer's bytes).

CREATE TABLE qrtz_job_details (
    sched_name        text    NOT NULL,
    job_name          text    NOT NULL,
    job_group         text    NOT NULL,
    description       text    NULL,
    job_class_name    text    NOT NULL,
    is_durable        boolean NOT NULL,
    is_nonconcurrent  boolean NOT NULL,
    is_update_data    boolean NOT NULL,
    requests_recovery boolean NOT NULL,
    job_data          bytea   NULL,
    PRIMARY KEY (sched_name, job_name, job_group)
);

CREATE TABLE qrtz_triggers (
    sched_name              text         NOT NULL,
    trigger_name            text         NOT NULL,
    trigger_group           text         NOT NULL,
    job_name                text         NOT NULL,
    job_group               text         NOT NULL,
    description             text         NULL,
    next_fire_time          bigint       NULL,
    prev_fire_time          bigint       NULL,
    priority                integer      NULL,
    trigger_state           text         NOT NULL,
    trigger_type            text         NOT NULL,
    start_time              bigint       NOT NULL,
    end_time                bigint       NULL,
    calendar_name           text         NULL,
    misfire_instr           smallint     NULL,
    misfire_orig_fire_time  bigint       NULL,
    execution_group         varchar(200) NULL,
    preferred_node          varchar(200) NULL,
    preferred_node_auto     boolean      NOT NULL DEFAULT false,
    retry_policy            varchar(250) NULL,
    retry_attempt           integer      NULL,
    continues_trigger_name  text         NULL,
    continues_trigger_group text         NULL,
    continuation_condition  integer      NULL,
    overlap_policy          integer      NULL,
    pause_reason            varchar(250) NULL,
    paused_by               varchar(200) NULL,
    paused_at               bigint       NULL,
    misfire_threshold       bigint       NULL,
    fixed_delay             boolean      NULL,
    job_data                bytea        NULL,
    PRIMARY KEY (sched_name, trigger_name, trigger_group),
    FOREIGN KEY (sched_name, job_name, job_group) REFERENCES qrtz_job_details (sched_name, job_name, job_group)
);
-- The acquisition query: the next triggers due in a state, per scheduler.
CREATE INDEX ix_qrtz_triggers_next_fire ON qrtz_triggers (sched_name, trigger_state, next_fire_time);
CREATE INDEX ix_qrtz_triggers_job ON qrtz_triggers (sched_name, job_name, job_group);

CREATE TABLE qrtz_simple_triggers (
    sched_name      text   NOT NULL,
    trigger_name    text   NOT NULL,
    trigger_group   text   NOT NULL,
    repeat_count    bigint NOT NULL,
    repeat_interval bigint NOT NULL,
    times_triggered bigint NOT NULL,
    PRIMARY KEY (sched_name, trigger_name, trigger_group),
    FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);

CREATE TABLE qrtz_cron_triggers (
    sched_name      text NOT NULL,
    trigger_name    text NOT NULL,
    trigger_group   text NOT NULL,
    cron_expression text NOT NULL,
    time_zone_id    text NULL,
    PRIMARY KEY (sched_name, trigger_name, trigger_group),
    FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);

-- Calendar-interval, daily-time-interval and recurrence triggers keep their settings here.
CREATE TABLE qrtz_simprop_triggers (
    sched_name    text    NOT NULL,
    trigger_name  text    NOT NULL,
    trigger_group text    NOT NULL,
    str_prop_1    text    NULL,
    str_prop_2    text    NULL,
    str_prop_3    text    NULL,
    int_prop_1    integer NULL,
    int_prop_2    integer NULL,
    long_prop_1   bigint  NULL,
    long_prop_2   bigint  NULL,
    dec_prop_1    numeric NULL,
    dec_prop_2    numeric NULL,
    bool_prop_1   boolean NULL,
    bool_prop_2   boolean NULL,
    time_zone_id  text    NULL,
    PRIMARY KEY (sched_name, trigger_name, trigger_group),
    FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);

CREATE TABLE qrtz_blob_triggers (
    sched_name    text  NOT NULL,
    trigger_name  text  NOT NULL,
    trigger_group text  NOT NULL,
    blob_data     bytea NULL,
    PRIMARY KEY (sched_name, trigger_name, trigger_group),
    FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);

CREATE TABLE qrtz_calendars (
    sched_name    text  NOT NULL,
    calendar_name text  NOT NULL,
    calendar      bytea NOT NULL,
    PRIMARY KEY (sched_name, calendar_name)
);

CREATE TABLE qrtz_paused_trigger_grps (
    sched_name    text         NOT NULL,
    trigger_group text         NOT NULL,
    pause_reason  varchar(250) NULL,
    paused_by     varchar(200) NULL,
    paused_at     bigint       NULL,
    PRIMARY KEY (sched_name, trigger_group)
);

CREATE TABLE qrtz_paused_job_grps (
    sched_name   text         NOT NULL,
    job_group    text         NOT NULL,
    pause_reason varchar(250) NULL,
    paused_by    varchar(200) NULL,
    paused_at    bigint       NULL,
    PRIMARY KEY (sched_name, job_group)
);

-- A row per firing in progress: how a surviving node finds, and recovers, the work of a dead one.
CREATE TABLE qrtz_fired_triggers (
    sched_name               text         NOT NULL,
    entry_id                 text         NOT NULL,
    trigger_name             text         NOT NULL,
    trigger_group            text         NOT NULL,
    instance_name            text         NOT NULL,
    fired_time               bigint       NOT NULL,
    sched_time               bigint       NOT NULL,
    priority                 integer      NOT NULL,
    state                    text         NOT NULL,
    job_name                 text         NULL,
    job_group                text         NULL,
    is_nonconcurrent         boolean      NOT NULL,
    requests_recovery        boolean      NULL,
    execution_group          varchar(200) NULL,
    progress                 integer      NULL,
    progress_message         varchar(250) NULL,
    interrupt_requested_time bigint       NULL,
    PRIMARY KEY (sched_name, entry_id)
);
CREATE INDEX ix_qrtz_fired_triggers_instance ON qrtz_fired_triggers (sched_name, instance_name);
CREATE INDEX ix_qrtz_fired_triggers_job ON qrtz_fired_triggers (sched_name, job_name, job_group);

-- Cluster membership: each node's last check-in; a node silent for longer than its interval
-- (plus the misfire threshold) is taken for dead and its firings are recovered by another.
CREATE TABLE qrtz_scheduler_state (
    sched_name        text        NOT NULL,
    instance_name     text        NOT NULL,
    last_checkin_time bigint      NOT NULL,
    checkin_interval  bigint      NOT NULL,
    quartz_version    varchar(20) NULL,
    PRIMARY KEY (sched_name, instance_name)
);

-- Row locks (TRIGGER_ACCESS, STATE_ACCESS) that serialise the nodes' changes to the tables above.
CREATE TABLE qrtz_locks (
    sched_name text NOT NULL,
    lock_name  text NOT NULL,
    PRIMARY KEY (sched_name, lock_name)
);
