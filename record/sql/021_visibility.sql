-- 021_visibility.sql — who sees a bot's stderr (issue 30; the tournament
-- file's `visibility: {stderr: private|public}`, schemas/tournament.md):
-- 'private' (only the entry's owner and the arbiters, through the API),
-- 'public' (every reader of the web, as before accounts), NULL (the file
-- says nothing: private when the record has accounts, public otherwise;
-- the web decides when it reads, so a record that gains accounts hides
-- the stderr of tournaments that did not choose).
ALTER TABLE tournaments ADD COLUMN stderr_visibility text
    CHECK (stderr_visibility IS NULL OR stderr_visibility IN ('private', 'public'));
