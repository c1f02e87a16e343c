-- 008_disputes.sql — disputes and what they change (docs/disputes.md).
-- A dispute is opened on a match with a reason, shown with its evidence,
-- and resolved: upheld (the result stands), voided (the match counts for
-- nothing) or rerun (played again with the same seeds and deals by the
-- same programs). Nothing a dispute replaces is deleted: the match's
-- result as it was — its row, seats, sides, deals, penalties and rating
-- history — is kept in `superseded`, and so is every later match of a
-- format whose rounds are planned from results (elimination, Swiss, a
-- knockout after groups) that the change invalidates and that is planned
-- again. Who did what, when and why is in `events` too.
CREATE TABLE disputes (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    match_id      bigint NOT NULL,          -- no foreign key: a dispute outlives a match it invalidated
    round         int NOT NULL,
    tbl           int NOT NULL,
    opened_at     timestamptz NOT NULL DEFAULT now(),
    opened_by     text NOT NULL,
    reason        text NOT NULL,
    state         text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'upheld', 'voided', 'rerun')),
    resolved_at   timestamptz,
    resolved_by   text,
    resolution    text                      -- the arbiter's reason
);
CREATE UNIQUE INDEX disputes_open ON disputes (match_id) WHERE state = 'open';

CREATE TABLE superseded (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    match_id      bigint NOT NULL,
    round         int NOT NULL,
    tbl           int NOT NULL,
    attempt       int NOT NULL,
    dispute_id    bigint NOT NULL REFERENCES disputes,
    at            timestamptz NOT NULL DEFAULT now(),
    why           text NOT NULL,            -- 'voided', 'rerun', or 'invalidated by match N'
    snapshot      jsonb NOT NULL            -- {match, seats, sides, deals, penalties, rating_history}
);
CREATE INDEX superseded_match ON superseded (match_id);

-- The match's attempt: 1, then one more for each rerun.
ALTER TABLE matches ADD COLUMN attempt int NOT NULL DEFAULT 1;
