-- pgbench driver (run.sh): one slots_apply call with 16 new bookings on random slots of places 1..300, days
-- 1..28 from today, times 08:00 + 15-minute steps, the default service 1. Each booking draws a code from
-- pgbench_codes (setup.sql) and brings it when run with -D codes=1 (invitation codes), leaves it out with
-- -D codes=0 (the real path), so both pay the same for the script's own work.
SELECT count(*) FROM (
  SELECT array_agg(1 ORDER BY h) op, array_agg(p ORDER BY h) pl, array_agg(d ORDER BY h) dy, array_agg(m ORDER BY h) mi,
         array_agg(1 ORDER BY h) sv,
         array_agg(h ORDER BY h) pe, array_agg('+421900000000'::text ORDER BY h) ph, array_agg('Name Surname'::text ORDER BY h) nm,
         array_agg('sk'::text ORDER BY h) la, array_agg(c ORDER BY h) co, array_agg(k ORDER BY h) ky, array_agg(f ORDER BY h) fp,
         array_agg(extract(epoch from now())::bigint ORDER BY h) nw, array_agg(NULL::date ORDER BY h) bi, array_agg(CASE WHEN :codes = 1 THEN iv END ORDER BY h) iv
  FROM (SELECT 1 + (random()*299)::int p, current_date + 1 + (random()*27)::int d, 480 + 15*(random()*33)::int m,
               md5(random()::text) h, upper(substr(md5(random()::text),1,10)) c, md5(random()::text) k, md5(random()::text) f, b.hash iv
        FROM generate_series(1,16) g, LATERAL (SELECT 1 + (g * 0 + random()*99999)::int AS r OFFSET 0) q, LATERAL (SELECT hash FROM pgbench_codes WHERE n = q.r) b) x) a,
  LATERAL slots_apply(a.op, a.pl, a.dy, a.mi, a.sv, a.pe, a.ph, a.nm, a.la, a.co, a.ky, a.fp, a.nw,
                      a.bi, a.iv, NULL, NULL, NULL, NULL, NULL, NULL) r WHERE r.o_status = 1;
