-- 006_ladders.sql — ladders (docs/ladders.md): a long-lived competition
-- (tournaments.format = 'ladder') whose entrants come and go while it runs.
-- An entry is an entrant row (its name and command, like any tournament's)
-- plus its row here: the name it was joined under and its version (a new
-- version of a name is a new entry, linked to the one before), its program
-- as a digest of its files, its state, the verdict of its validation match,
-- and what matchmaking needs without reading the whole match history:
-- whom it met last, the seats it sat, when it last started a match.
-- Every ladder match is a round of one table; rounds.note keeps the
-- matchmaking choice that made it (its seed and why), so every pairing
-- can be explained after the fact.

CREATE TABLE ladder_entries (
    tournament_id    bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    entrant          int NOT NULL,               -- entrants.idx
    base             text NOT NULL,              -- the name joined under (versions share it)
    version          int NOT NULL,               -- 1, 2, ... per base
    previous         int,                        -- the entry of the version before (entrants.idx)
    replaces         boolean NOT NULL DEFAULT false,  -- retire the previous version once validated
    status           text NOT NULL CHECK (status IN ('validating', 'active', 'rejected', 'retired', 'suspended')),
    verdict          text NOT NULL DEFAULT '',   -- the validation's outcome, or why it was suspended
    validation_match bigint REFERENCES matches ON DELETE SET NULL,
    digest           text,                       -- sha256 of its program's files (proto/bundle.h), NULL: none
    dir              text NOT NULL DEFAULT '',   -- where its relative paths were given (join's directory)
    files            text NOT NULL DEFAULT '',   -- more files of its program, space separated
    joined_at        timestamptz NOT NULL DEFAULT now(),
    retired_at       timestamptz,
    last_started     timestamptz,                -- its latest match's creation
    recent           int[] NOT NULL DEFAULT '{}',-- its latest opponents (entrants.idx), latest first, 8 at most
    seats            int[] NOT NULL DEFAULT '{0,0,0,0}',  -- how often it sat each seat (or side)
    PRIMARY KEY (tournament_id, entrant),
    UNIQUE (tournament_id, base, version),
    FOREIGN KEY (tournament_id, entrant) REFERENCES entrants (tournament_id, idx) ON DELETE CASCADE
);
CREATE INDEX ladder_entries_status ON ladder_entries (tournament_id, status);

-- The matchmaking choice behind a ladder's round: its seed and its reasons.
ALTER TABLE rounds ADD COLUMN note text;
-- Matches started in the last hour (a ladder's rate per entry).
CREATE INDEX rounds_created ON rounds (tournament_id, created_at);
-- The matches still to rate, in plan order: a ladder's record grows to a
-- million matches, and each result looks for these.
CREATE INDEX matches_unrated ON matches (tournament_id, round, tbl) WHERE NOT rated AND state <> 'void';
-- What the leaderboard needs of the ladder's file (written when a
-- scheduler takes the ladder up): games under which an entry is
-- provisional, days without a match after which it is listed inactive.
ALTER TABLE tournaments ADD COLUMN ladder_provisional int, ADD COLUMN ladder_inactive_days int;
