-- pgbench driver: one slots_apply call with 32 new bookings on random slots of places 1..300, days
-- 2099-01-01 + 0..29, times 08:00 + 15-minute steps, the default service 1 (the seeding in docs/benchmarks.md,
-- "slots_apply alone"); no campaign arrays (eligibility, second doses, walk-ins: NULL).
-- Persons are sorted as the API's batcher sorts them. Usage:
--   pgbench -n -c 4 -j 2 -T 8 -f loadtest/pgbench/slots_apply_32.sql DATABASE
SELECT count(*) FROM (
  SELECT array_agg(1 ORDER BY h) op, array_agg(p ORDER BY h) pl, array_agg(d ORDER BY h) dy, array_agg(m ORDER BY h) mi,
         array_agg(1 ORDER BY h) sv,
         array_agg(h ORDER BY h) pe, array_agg('+421900000000'::text ORDER BY h) ph, array_agg('Name Surname'::text ORDER BY h) nm,
         array_agg('sk'::text ORDER BY h) la, array_agg(c ORDER BY h) co, array_agg(k ORDER BY h) ky, array_agg(f ORDER BY h) fp,
         array_agg(1000::bigint ORDER BY h) nw
  FROM (SELECT 1 + (random()*299)::int p, '2099-01-01'::date + (random()*29)::int d, 480 + 15*(random()*33)::int m,
               md5(random()::text) h, upper(substr(md5(random()::text),1,10)) c, md5(random()::text) k, md5(random()::text) f
        FROM generate_series(1,32)) x) a,
  LATERAL slots_apply(a.op, a.pl, a.dy, a.mi, a.sv, a.pe, a.ph, a.nm, a.la, a.co, a.ky, a.fp, a.nw,
                      NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) r;
