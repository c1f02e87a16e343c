-- 004_teams.sql — teams of partnership games (Da Bang: partners opposite,
-- 0+2 against 1+3). In such a tournament the formats pair teams, and a
-- match's result is first a result per team (side): the engine's verdict,
-- which can differ from what the members' totals say (passing 10, the
-- special endings, the tie-break at the deal limit). Each member keeps its
-- own row in match_seats (decisions, time, penalties); the team's row is
-- in match_sides, and team_standings ranks the teams as standings ranks
-- entrants.

CREATE TABLE teams (
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    idx           int NOT NULL,           -- the team's index in the configuration (0-based)
    name          text NOT NULL,
    seed_rank     int,                    -- seeding (1 = top), NULL unseeded
    rating        double precision,
    PRIMARY KEY (tournament_id, idx),
    UNIQUE (tournament_id, name)
);

-- entrants.team names the team; team_idx is its row in teams.
ALTER TABLE entrants ADD COLUMN team_idx int;

-- A side of a finished match: the team that sat it, its total (the
-- game's team score), its rank (1 = best; a forfeited member puts the
-- team after the others) and match points (one for each side finished
-- ahead of, a half for each tie).
CREATE TABLE match_sides (
    match_id  bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    side      int NOT NULL,               -- the game's team number (Da Bang: 0 = seats 0+2 of the first deal)
    team      int,                        -- teams.idx (NULL when the tournament names no teams)
    total     bigint NOT NULL,
    rank      int NOT NULL,
    points    double precision NOT NULL,
    forfeited boolean NOT NULL,
    PRIMARY KEY (match_id, side)
);
CREATE INDEX match_sides_team ON match_sides (team);

-- Team standings: match points first, then team scores, then matches won.
CREATE VIEW team_standings AS
SELECT t.tournament_id,
       t.idx AS team,
       t.name,
       count(ms.match_id) FILTER (WHERE m.state = 'done')               AS played,
       coalesce(sum(ms.points) FILTER (WHERE m.state = 'done'), 0)      AS points,
       coalesce(sum(ms.total) FILTER (WHERE m.state = 'done'), 0)       AS score,
       count(*) FILTER (WHERE m.state = 'done' AND ms.rank = 1)         AS wins,
       coalesce((SELECT sum(s.penalties) FROM match_seats s
                 JOIN entrants e ON e.idx = s.entrant AND e.tournament_id = t.tournament_id
                 JOIN matches mm ON mm.id = s.match_id AND mm.tournament_id = t.tournament_id
                 WHERE e.team_idx = t.idx AND mm.state = 'done'), 0)    AS penalties,
       coalesce(bool_or(ms.forfeited), false)                            AS ever_forfeited
FROM teams t
LEFT JOIN match_sides ms ON ms.team = t.idx
     AND ms.match_id IN (SELECT id FROM matches WHERE tournament_id = t.tournament_id)
LEFT JOIN matches m ON m.id = ms.match_id
GROUP BY t.tournament_id, t.idx, t.name;

-- Team crosstable: what `team` scored against `opponent` in the matches
-- they shared.
CREATE VIEW team_crosstable AS
SELECT m.tournament_id,
       a.team AS team,
       b.team AS opponent,
       count(*) AS matches,
       sum(a.points) AS points,
       sum(a.total) AS score,
       count(*) FILTER (WHERE a.rank < b.rank) AS won
FROM matches m
JOIN match_sides a ON a.match_id = m.id
JOIN match_sides b ON b.match_id = m.id AND b.side <> a.side
WHERE m.state = 'done'
GROUP BY m.tournament_id, a.team, b.team;
