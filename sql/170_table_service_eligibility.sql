-- Disk: who may book a service (issue 41), as service_eligibility and service_age_steps are on
-- PostgreSQL and SQLite. A service without a row is open to everyone. rule: 0 everyone, 1 people born
-- on or before the cut-off in force (the greatest born_on_or_before of the steps already open,
-- opens_at in Unix seconds, 171_table_service_age_steps.sql), 2 invitation holders only. [rule] is
-- bracketed: a reserved word in T-SQL. Disk tables: the API reads them into its service directory,
-- and on this backend the rule is decided from that copy before the native dbo.reserve takes the
-- seat (docs/sqlserver.md says why, and what moving it into the proc needs).
IF OBJECT_ID(N'dbo.service_eligibility', N'U') IS NULL
CREATE TABLE dbo.service_eligibility (
    service_id          int     NOT NULL,
    [rule]              smallint NOT NULL CONSTRAINT df_service_eligibility_rule DEFAULT (0),
    accepts_invitations bit     NOT NULL CONSTRAINT df_service_eligibility_accepts DEFAULT (0),
    CONSTRAINT pk_service_eligibility PRIMARY KEY CLUSTERED (service_id),
    CONSTRAINT fk_service_eligibility_service FOREIGN KEY (service_id) REFERENCES dbo.services (id),
    CONSTRAINT ck_service_eligibility_rule CHECK ([rule] IN (0, 1, 2))
);
GO
