-- Quartz.NET's ADO.NET job store (Quartz 4.7) for the clustered scheduler in docker-compose:
-- jobs, triggers, firings in progress, node check-ins and the row locks that serialise the
-- nodes. Laid out as Quartz.NET documents its AdoJobStore tables (table prefix qrtz_); Quartz's
-- optional execution-history tables are not used and not created.
-- One file for the whole store, not one per table: the store is one third-party unit that is
-- deployed, upgraded and dropped together (tests/Slots.SqlServer.Tests knows this exception).
-- Disk tables: Quartz takes UPDLOCK row locks on qrtz_locks, which memory-optimized tables refuse.
-- Times are ticks (bigint), flags bit, serialized job data varbinary (the JSON serializer's bytes).

IF OBJECT_ID(N'dbo.qrtz_job_details', N'U') IS NULL
CREATE TABLE dbo.qrtz_job_details (
    sched_name        nvarchar(120) NOT NULL,
    job_name          nvarchar(150) NOT NULL,
    job_group         nvarchar(150) NOT NULL,
    description       nvarchar(250) NULL,
    job_class_name    nvarchar(250) NOT NULL,
    is_durable        bit           NOT NULL,
    is_nonconcurrent  bit           NOT NULL,
    is_update_data    bit           NOT NULL,
    requests_recovery bit           NOT NULL,
    job_data          varbinary(max) NULL,
    CONSTRAINT pk_qrtz_job_details PRIMARY KEY CLUSTERED (sched_name, job_name, job_group)
);
GO

IF OBJECT_ID(N'dbo.qrtz_triggers', N'U') IS NULL
CREATE TABLE dbo.qrtz_triggers (
    sched_name              nvarchar(120) NOT NULL,
    trigger_name            nvarchar(150) NOT NULL,
    trigger_group           nvarchar(150) NOT NULL,
    job_name                nvarchar(150) NOT NULL,
    job_group               nvarchar(150) NOT NULL,
    description             nvarchar(250) NULL,
    next_fire_time          bigint        NULL,
    prev_fire_time          bigint        NULL,
    priority                int           NULL,
    trigger_state           nvarchar(16)  NOT NULL,
    trigger_type            nvarchar(8)   NOT NULL,
    start_time              bigint        NOT NULL,
    end_time                bigint        NULL,
    calendar_name           nvarchar(200) NULL,
    misfire_instr           smallint      NULL,
    misfire_orig_fire_time  bigint        NULL,
    execution_group         nvarchar(200) NULL,
    preferred_node          nvarchar(200) NULL,
    preferred_node_auto     bit           NOT NULL CONSTRAINT df_qrtz_triggers_preferred_node_auto DEFAULT (0),
    retry_policy            nvarchar(250) NULL,
    retry_attempt           int           NULL,
    continues_trigger_name  nvarchar(150) NULL,
    continues_trigger_group nvarchar(150) NULL,
    continuation_condition  int           NULL,
    overlap_policy          int           NULL,
    pause_reason            nvarchar(250) NULL,
    paused_by               nvarchar(200) NULL,
    paused_at               bigint        NULL,
    misfire_threshold       bigint        NULL,
    fixed_delay             bit           NULL,
    job_data                varbinary(max) NULL,
    CONSTRAINT pk_qrtz_triggers PRIMARY KEY CLUSTERED (sched_name, trigger_name, trigger_group),
    CONSTRAINT fk_qrtz_triggers_job FOREIGN KEY (sched_name, job_name, job_group)
        REFERENCES dbo.qrtz_job_details (sched_name, job_name, job_group),
    -- The acquisition query: the next triggers due in a state, per scheduler.
    INDEX ix_qrtz_triggers_next_fire NONCLUSTERED (sched_name, trigger_state, next_fire_time),
    INDEX ix_qrtz_triggers_job NONCLUSTERED (sched_name, job_name, job_group)
);
GO

IF OBJECT_ID(N'dbo.qrtz_simple_triggers', N'U') IS NULL
CREATE TABLE dbo.qrtz_simple_triggers (
    sched_name      nvarchar(120) NOT NULL,
    trigger_name    nvarchar(150) NOT NULL,
    trigger_group   nvarchar(150) NOT NULL,
    repeat_count    bigint        NOT NULL,
    repeat_interval bigint        NOT NULL,
    times_triggered bigint        NOT NULL,
    CONSTRAINT pk_qrtz_simple_triggers PRIMARY KEY CLUSTERED (sched_name, trigger_name, trigger_group),
    CONSTRAINT fk_qrtz_simple_triggers FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES dbo.qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);
GO

IF OBJECT_ID(N'dbo.qrtz_cron_triggers', N'U') IS NULL
CREATE TABLE dbo.qrtz_cron_triggers (
    sched_name      nvarchar(120) NOT NULL,
    trigger_name    nvarchar(150) NOT NULL,
    trigger_group   nvarchar(150) NOT NULL,
    cron_expression nvarchar(120) NOT NULL,
    time_zone_id    nvarchar(80)  NULL,
    CONSTRAINT pk_qrtz_cron_triggers PRIMARY KEY CLUSTERED (sched_name, trigger_name, trigger_group),
    CONSTRAINT fk_qrtz_cron_triggers FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES dbo.qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);
GO

IF OBJECT_ID(N'dbo.qrtz_simprop_triggers', N'U') IS NULL
CREATE TABLE dbo.qrtz_simprop_triggers (
    sched_name    nvarchar(120)  NOT NULL,
    trigger_name  nvarchar(150)  NOT NULL,
    trigger_group nvarchar(150)  NOT NULL,
    str_prop_1    nvarchar(512)  NULL,
    str_prop_2    nvarchar(512)  NULL,
    str_prop_3    nvarchar(512)  NULL,
    int_prop_1    int            NULL,
    int_prop_2    int            NULL,
    long_prop_1   bigint         NULL,
    long_prop_2   bigint         NULL,
    dec_prop_1    numeric(13, 4) NULL,
    dec_prop_2    numeric(13, 4) NULL,
    bool_prop_1   bit            NULL,
    bool_prop_2   bit            NULL,
    time_zone_id  nvarchar(80)   NULL,
    CONSTRAINT pk_qrtz_simprop_triggers PRIMARY KEY CLUSTERED (sched_name, trigger_name, trigger_group),
    CONSTRAINT fk_qrtz_simprop_triggers FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES dbo.qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);
GO

IF OBJECT_ID(N'dbo.qrtz_blob_triggers', N'U') IS NULL
CREATE TABLE dbo.qrtz_blob_triggers (
    sched_name    nvarchar(120)  NOT NULL,
    trigger_name  nvarchar(150)  NOT NULL,
    trigger_group nvarchar(150)  NOT NULL,
    blob_data     varbinary(max) NULL,
    CONSTRAINT pk_qrtz_blob_triggers PRIMARY KEY CLUSTERED (sched_name, trigger_name, trigger_group),
    CONSTRAINT fk_qrtz_blob_triggers FOREIGN KEY (sched_name, trigger_name, trigger_group)
        REFERENCES dbo.qrtz_triggers (sched_name, trigger_name, trigger_group) ON DELETE CASCADE
);
GO

IF OBJECT_ID(N'dbo.qrtz_calendars', N'U') IS NULL
CREATE TABLE dbo.qrtz_calendars (
    sched_name    nvarchar(120)  NOT NULL,
    calendar_name nvarchar(200)  NOT NULL,
    calendar      varbinary(max) NOT NULL,
    CONSTRAINT pk_qrtz_calendars PRIMARY KEY CLUSTERED (sched_name, calendar_name)
);
GO

IF OBJECT_ID(N'dbo.qrtz_paused_trigger_grps', N'U') IS NULL
CREATE TABLE dbo.qrtz_paused_trigger_grps (
    sched_name    nvarchar(120) NOT NULL,
    trigger_group nvarchar(150) NOT NULL,
    pause_reason  nvarchar(250) NULL,
    paused_by     nvarchar(200) NULL,
    paused_at     bigint        NULL,
    CONSTRAINT pk_qrtz_paused_trigger_grps PRIMARY KEY CLUSTERED (sched_name, trigger_group)
);
GO

IF OBJECT_ID(N'dbo.qrtz_paused_job_grps', N'U') IS NULL
CREATE TABLE dbo.qrtz_paused_job_grps (
    sched_name   nvarchar(120) NOT NULL,
    job_group    nvarchar(150) NOT NULL,
    pause_reason nvarchar(250) NULL,
    paused_by    nvarchar(200) NULL,
    paused_at    bigint        NULL,
    CONSTRAINT pk_qrtz_paused_job_grps PRIMARY KEY CLUSTERED (sched_name, job_group)
);
GO

IF OBJECT_ID(N'dbo.qrtz_fired_triggers', N'U') IS NULL
CREATE TABLE dbo.qrtz_fired_triggers (
    sched_name               nvarchar(120) NOT NULL,
    entry_id                 nvarchar(140) NOT NULL,
    trigger_name             nvarchar(150) NOT NULL,
    trigger_group            nvarchar(150) NOT NULL,
    instance_name            nvarchar(200) NOT NULL,
    fired_time               bigint        NOT NULL,
    sched_time               bigint        NOT NULL,
    priority                 int           NOT NULL,
    state                    nvarchar(16)  NOT NULL,
    job_name                 nvarchar(150) NULL,
    job_group                nvarchar(150) NULL,
    is_nonconcurrent         bit           NOT NULL,
    requests_recovery        bit           NULL,
    execution_group          nvarchar(200) NULL,
    progress                 int           NULL,
    progress_message         nvarchar(250) NULL,
    interrupt_requested_time bigint        NULL,
    CONSTRAINT pk_qrtz_fired_triggers PRIMARY KEY CLUSTERED (sched_name, entry_id),
    INDEX ix_qrtz_fired_triggers_instance NONCLUSTERED (sched_name, instance_name),
    INDEX ix_qrtz_fired_triggers_job NONCLUSTERED (sched_name, job_name, job_group)
);
GO

IF OBJECT_ID(N'dbo.qrtz_scheduler_state', N'U') IS NULL
CREATE TABLE dbo.qrtz_scheduler_state (
    sched_name        nvarchar(120) NOT NULL,
    instance_name     nvarchar(200) NOT NULL,
    last_checkin_time bigint        NOT NULL,
    checkin_interval  bigint        NOT NULL,
    quartz_version    nvarchar(20)  NULL,
    CONSTRAINT pk_qrtz_scheduler_state PRIMARY KEY CLUSTERED (sched_name, instance_name)
);
GO

IF OBJECT_ID(N'dbo.qrtz_locks', N'U') IS NULL
CREATE TABLE dbo.qrtz_locks (
    sched_name nvarchar(120) NOT NULL,
    lock_name  nvarchar(40)  NOT NULL,
    CONSTRAINT pk_qrtz_locks PRIMARY KEY CLUSTERED (sched_name, lock_name)
);
GO
