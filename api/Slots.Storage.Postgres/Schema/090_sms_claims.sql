-- A consumer claims an SMS in sms_sent before sending it (status 3, sending), so two copies of one
-- message consumed by two processes at the same moment meet here and one sends: claim is the
-- holder's own token, sent_at the claim's time until the send's record replaces it.
ALTER TABLE sms_sent ADD COLUMN claim text NULL;
