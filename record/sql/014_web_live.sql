-- 014_web_live.sql — what a live page asks of the record each second
-- (docs/web.md, "Live"), found by index rather than by reading every
-- match of the tournament: the last result's time and the results since
-- (a ladder that has run for months holds hundreds of thousands of done
-- matches; its event stream polled them all once a second).
CREATE INDEX matches_finished ON matches (tournament_id, finished_at) WHERE state = 'done';
