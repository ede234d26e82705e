-- The invitation codes the rules' pgbench run spends (run.sh): a batch of 100,000 codes for the default service
-- 1, their hashes numbered in pgbench_codes so a transaction can draw one at random. The hashes stand for the
-- keyed hashes the API computes (any 64 hex characters: the store never sees a code itself).
CREATE TABLE pgbench_codes AS
SELECT n, encode(sha256(('pgbench-' || n)::bytea), 'hex') AS hash FROM generate_series(1, 100000) AS n;
ALTER TABLE pgbench_codes ADD PRIMARY KEY (n);
INSERT INTO invitation_batches (service_id, label, size, created_at, created_by)
VALUES (1, 'pgbench', 100000, extract(epoch FROM now())::bigint, 'pgbench');
INSERT INTO invitation_codes (hash, batch_id, service_id)
SELECT hash, (SELECT max(id) FROM invitation_batches WHERE label = 'pgbench'), 1 FROM pgbench_codes;
