-- Disk: the dated openings of a service by age (issue 41), as service_age_steps is on PostgreSQL and
-- SQLite: from opens_at (Unix seconds) on, people born on or before born_on_or_before may book a
-- service whose rule is age (170_table_service_eligibility.sql). Openings only widen: the cut-off
-- in force is the greatest date of the steps already open.
IF OBJECT_ID(N'dbo.service_age_steps', N'U') IS NULL
CREATE TABLE dbo.service_age_steps (
    service_id        int    NOT NULL,
    opens_at          bigint NOT NULL,
    born_on_or_before date   NOT NULL,
    CONSTRAINT pk_service_age_steps PRIMARY KEY CLUSTERED (service_id, opens_at),
    CONSTRAINT fk_service_age_steps_service FOREIGN KEY (service_id) REFERENCES dbo.services (id)
);
GO
