-- 020_entry_startup_env.sql — what a ladder entry declares beside its
-- command (issue 30): its start-up budget, spent once per bot process
-- (NULL: the ladder's clock.startup_ms), and its environment variables
-- ("NAME=value" each, checked by match_env_check: docs/security.md, "A
-- bot's environment"). Both are part of the entry: a different budget or
-- environment joins as a new version, like a different command; the
-- program's digest stays the digest of its files. The ladder's limit on
-- the budget (clock.startup_ms_max, else clock.startup_ms) is kept with
-- the ladder's other settings, so that `ladder join` refuses a budget past
-- it without reading the file.
ALTER TABLE ladder_entries
    ADD COLUMN startup_ms int CHECK (startup_ms IS NULL OR startup_ms BETWEEN 1 AND 600000),
    ADD COLUMN env text[] NOT NULL DEFAULT '{}' CHECK (cardinality(env) <= 16);
ALTER TABLE tournaments ADD COLUMN ladder_startup_max int;
