-- 001_init.sql — the tournament record. Applied once, in a transaction, by
-- the scheduler at start (scheduler/store.c); schema_migrations says which
-- migrations a database has. Every write the scheduler makes is idempotent:
-- natural unique keys and ON CONFLICT DO NOTHING, and a match result is
-- accepted only from the lease generation that holds the match.

CREATE TABLE tournaments (
    id            bigserial PRIMARY KEY,
    name          text NOT NULL,
    config_digest text NOT NULL,          -- sha256 of the YAML file as read
    config_text   text NOT NULL,          -- the YAML itself: the record is self-contained
    game          text NOT NULL,
    rules         text NOT NULL,
    format        text NOT NULL,
    seed          numeric(20) NOT NULL,
    state         text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz,
    UNIQUE (name, config_digest)
);

CREATE TABLE entrants (
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    idx           int NOT NULL,           -- position in the config (0-based)
    name          text NOT NULL,
    command       text NOT NULL,
    seed_rank     int,                    -- seeding (1 = top), NULL unseeded
    rating        double precision,
    team          text,
    PRIMARY KEY (tournament_id, idx),
    UNIQUE (tournament_id, name)
);

CREATE TABLE rounds (
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    round         int NOT NULL,
    stage         text NOT NULL DEFAULT 'main',   -- main | group | knockout
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE matches (
    id             bigserial PRIMARY KEY,
    tournament_id  bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    round          int NOT NULL,
    tbl            int NOT NULL,          -- table number within the round
    seed           numeric(20) NOT NULL,  -- the match seed (from the tournament seed)
    state          text NOT NULL DEFAULT 'pending'
                   CHECK (state IN ('pending', 'leased', 'done', 'void')),
    lease_gen      int NOT NULL DEFAULT 0,  -- bumped by every claim
    leased_by      text,
    lease_until    timestamptz,
    finished_at    timestamptz,
    digest         text,                  -- sha256 of the transcript
    transcript     text,                  -- where the transcript was written
    games          int,
    decisions      bigint,
    wall_ms        bigint,
    error          text,                  -- why the match is void
    UNIQUE (tournament_id, round, tbl)
);
CREATE INDEX matches_claim ON matches (tournament_id, state, round, tbl);

CREATE TABLE match_seats (
    match_id   bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    slot       int NOT NULL,              -- the bot's index in the match (its first seat)
    entrant    int NOT NULL,
    total      bigint,                    -- deal scores summed
    points     double precision,          -- match points (docs: others finished ahead of)
    rank       int,
    forfeited  boolean,
    decisions  int,
    wall_ns    bigint,
    cpu_ns     bigint,
    strikes    int,
    penalties  int,
    sandbox    text,
    PRIMARY KEY (match_id, slot)
);

CREATE TABLE deals (
    match_id        bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    game            int NOT NULL,
    deal            int NOT NULL,
    seating         int NOT NULL,
    seed            numeric(20) NOT NULL,
    seat_slots      int[] NOT NULL,       -- the match slot in each seat
    scores          bigint[] NOT NULL,    -- per seat
    forfeit_slot    int,
    PRIMARY KEY (match_id, game)
);

CREATE TABLE penalties (
    match_id    bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    n           int NOT NULL,             -- order within the match
    game        int NOT NULL,
    decision    int NOT NULL,
    slot        int NOT NULL,
    reason      text NOT NULL,
    consequence text NOT NULL,
    PRIMARY KEY (match_id, n)
);

-- Which result feeds which table (knockouts): the entrant finishing `place`
-- at (round, tbl) goes to (to_round, to_tbl).
CREATE TABLE bracket_links (
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    round    int NOT NULL,
    tbl      int NOT NULL,
    place    int NOT NULL,
    to_round int NOT NULL,
    to_tbl   int NOT NULL,
    PRIMARY KEY (tournament_id, round, tbl, place)
);

CREATE TABLE events (
    id            bigserial PRIMARY KEY,
    tournament_id bigint REFERENCES tournaments ON DELETE CASCADE,
    at            timestamptz NOT NULL DEFAULT now(),
    kind          text NOT NULL,          -- start, resume, round, lease-expired, stale-result, done ...
    detail        text NOT NULL DEFAULT ''
);

-- Standings: match points first, then deal scores, then matches won.
CREATE VIEW standings AS
SELECT e.tournament_id,
       e.idx AS entrant,
       e.name,
       count(s.match_id) FILTER (WHERE m.state = 'done')            AS played,
       coalesce(sum(s.points) FILTER (WHERE m.state = 'done'), 0)   AS points,
       coalesce(sum(s.total) FILTER (WHERE m.state = 'done'), 0)    AS score,
       count(*) FILTER (WHERE m.state = 'done' AND s.rank = 1)      AS wins,
       coalesce(sum(s.penalties) FILTER (WHERE m.state = 'done'), 0) AS penalties,
       bool_or(coalesce(s.forfeited, false))                        AS ever_forfeited
FROM entrants e
LEFT JOIN match_seats s ON s.entrant = e.idx
     AND s.match_id IN (SELECT id FROM matches WHERE tournament_id = e.tournament_id)
LEFT JOIN matches m ON m.id = s.match_id
GROUP BY e.tournament_id, e.idx, e.name;

-- Crosstable: what `entrant` scored (deal scores) in matches shared with `opponent`.
CREATE VIEW crosstable AS
SELECT m.tournament_id,
       a.entrant AS entrant,
       b.entrant AS opponent,
       count(*) AS matches,
       sum(a.points) AS points,
       sum(a.total) AS score
FROM matches m
JOIN match_seats a ON a.match_id = m.id
JOIN match_seats b ON b.match_id = m.id AND b.entrant <> a.entrant
WHERE m.state = 'done'
GROUP BY m.tournament_id, a.entrant, b.entrant;
