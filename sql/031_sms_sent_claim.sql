-- A consumer claims an SMS in dbo.sms_sent before sending it (status 3, sending), so two copies of
-- one message consumed by two processes at the same moment meet here and one sends: claim is the
-- holder's own token, sent_at the claim's time until the send's record replaces it.
IF COL_LENGTH(N'dbo.sms_sent', N'claim') IS NULL
ALTER TABLE dbo.sms_sent ADD claim varchar(32) COLLATE Latin1_General_100_BIN2 NULL;
GO
