-- The slot catalogue's key names the service (issue 41): two services of one place may start at the
-- same minute, each with its own seats. The old columns stay in front, so a place's week is still
-- one range read of the key. Every existing row is service 1, so the new key holds them all.
ALTER TABLE slots DROP CONSTRAINT IF EXISTS slots_pkey;
ALTER TABLE slots ADD CONSTRAINT slots_pkey PRIMARY KEY (place_id, day, start_minute, service_id);
