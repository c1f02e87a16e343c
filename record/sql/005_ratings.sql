-- 005_ratings.sql — ratings in the record (docs/ratings.md). A tournament
-- (and later a ladder) names its rating system; finished matches then
-- update the ratings of their entrants in the transaction of a result, in
-- the order of the plan (round, table) whatever order the results came in:
-- a match is rated once every match before it is finished or void, so
-- the same tournament gives the same ratings however its work was spread.
-- rating_history keeps what each match changed, one row per entrant per
-- match (the primary key): a match never rates twice, and the ratings can
-- be recomputed from the history in order and compared with what is
-- stored (`arbiter ratings NAME`).
ALTER TABLE tournaments
    ADD COLUMN rating_system text NOT NULL DEFAULT 'none'
        CHECK (rating_system IN ('none', 'openskill', 'glicko2', 'elo')),
    ADD COLUMN rating_model text;          -- openskill's model (plackett-luce ...)

-- The current rating of each rated entrant. mu/sigma: Weng–Lin's; Glicko-2
-- keeps rating in mu, RD in sigma and the volatility in vol; Elo the rating
-- in mu.
ALTER TABLE matches ADD COLUMN rated boolean NOT NULL DEFAULT false;
-- The bot's side in a game of fixed teams (match_sides.side), NULL without.
ALTER TABLE match_seats ADD COLUMN side int;

CREATE TABLE ratings (
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    entrant       int NOT NULL,
    mu            double precision NOT NULL,
    sigma         double precision NOT NULL,
    vol           double precision,
    games         int NOT NULL DEFAULT 0,
    last_match    bigint,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, entrant)
);

CREATE TABLE rating_history (
    seq          bigserial,               -- the order ratings changed in: a recomputation follows it
    match_id     bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    entrant      int NOT NULL,
    mu_before    double precision NOT NULL,
    sigma_before double precision NOT NULL,
    vol_before   double precision,
    mu_after     double precision NOT NULL,
    sigma_after  double precision NOT NULL,
    vol_after    double precision,
    rank         int NOT NULL,             -- the place the update used (1 best; team places in partnership games)
    side         int,                      -- the team in the match (partnership games), NULL without
    at           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, entrant)
);
CREATE INDEX rating_history_seq ON rating_history (seq);
