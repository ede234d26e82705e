-- A hot seat's state in columns of its own (issue 38): code is a booking's code or NULL, and a seat
-- the waiting list holds back from the crowd says so in hold (1) with, when one entry's offer holds
-- it, offer_id (waitlist_offers.id); hold 1 with no offer_id is a seat kept for the line, which the
-- offer job hands to the next in line. Free is code IS NULL AND hold = 0: the same row the seat
-- pick reads through the primary key, so taking a seat stays one indexed range read and one update.
-- Until this script, the code column carried the hold instead ('~h' and the offer id, or '~w');
-- those rows move to the columns here.
ALTER TABLE hot_seats ADD COLUMN hold INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hot_seats ADD COLUMN offer_id INTEGER NULL;

UPDATE hot_seats SET hold = 1, offer_id = CAST(substr(code, 3) AS INTEGER), code = NULL WHERE code LIKE '~h%';
UPDATE hot_seats SET hold = 1, code = NULL WHERE code = '~w';
