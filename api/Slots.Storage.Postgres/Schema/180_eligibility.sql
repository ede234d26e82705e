-- Who may book a service (issue 41): a rule per service, and its dated openings by age. A service
-- without a row is open to everyone, so the default service costs nothing. rule: 0 everyone, 1 people
-- born on or before the cut-off in force (the greatest born_on_or_before of the steps already open,
-- opens_at in Unix seconds), 2 invitation holders only. The birth date a booking is judged by is read
-- from the birth number for the decision and never stored.
CREATE TABLE IF NOT EXISTS service_eligibility (
    service_id          integer  NOT NULL PRIMARY KEY REFERENCES services (id),
    rule                smallint NOT NULL DEFAULT 0 CHECK (rule IN (0, 1, 2)),
    accepts_invitations boolean  NOT NULL DEFAULT false
);

CREATE TABLE IF NOT EXISTS service_age_steps (
    service_id        integer NOT NULL REFERENCES services (id),
    opens_at          bigint  NOT NULL,
    born_on_or_before date    NOT NULL,
    PRIMARY KEY (service_id, opens_at)
);
