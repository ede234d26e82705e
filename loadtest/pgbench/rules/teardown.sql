-- Undoes setup.sql and the rule run.sh left on the default service (the bookings it made stay: a scratch database).
DELETE FROM service_eligibility WHERE service_id = 1;
DELETE FROM invitation_codes WHERE batch_id IN (SELECT id FROM invitation_batches WHERE label = 'pgbench');
DELETE FROM invitation_batches WHERE label = 'pgbench';
DROP TABLE IF EXISTS pgbench_codes;
