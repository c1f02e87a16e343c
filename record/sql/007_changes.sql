-- 007_changes.sql — what changed since a reader last looked. A ladder's
-- scheduler keeps every entry's matchmaking state in memory (its rating,
-- status, recent opponents, seats, last start) and, before each decision,
-- reads only the rows changed since its last read: those whose `changed`
-- is above the highest it has seen. Every writer of these rows takes the
-- tournament's row lock (FOR NO KEY UPDATE, or FOR UPDATE at a join)
-- before it draws from the sequence and holds it to its commit, so within
-- one tournament the numbers are drawn in commit order and a reader that
-- saw N has seen every change numbered N or below.
CREATE SEQUENCE record_changes;
ALTER TABLE ladder_entries ADD COLUMN changed bigint NOT NULL DEFAULT nextval('record_changes');
ALTER TABLE ratings ADD COLUMN changed bigint NOT NULL DEFAULT nextval('record_changes');
CREATE INDEX ladder_entries_changed ON ladder_entries (tournament_id, changed);
CREATE INDEX ratings_changed ON ratings (tournament_id, changed);
