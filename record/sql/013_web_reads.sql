-- 013_web_reads.sql — what the web pages read of a large record, found
-- by index (docs/web.md, Performance; `arbiter bench web`).
--
-- The standings view picked an entrant's seats with a correlated
-- `s.match_id IN (SELECT id FROM matches WHERE tournament_id = ...)` in the
-- join's condition, which the planner cannot turn into a join: it ran the
-- subquery for every seat of every tournament's entrant of that index, and
-- a 1,000-entrant Swiss in a record that also held a 10,000-entry ladder
-- took minutes. The same rows (the seats of the entrant's tournament's
-- matches) are now a join, filtered by the tournament first.
CREATE OR REPLACE VIEW standings AS
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
LEFT JOIN (matches m JOIN match_seats s ON s.match_id = m.id)
       ON m.tournament_id = e.tournament_id AND s.entrant = e.idx
GROUP BY e.tournament_id, e.idx, e.name;

-- An entrant's page: its seats and its rating history without reading
-- every seat of the tournament (a ladder's entry has a few hundred of the
-- ladder's millions).
CREATE INDEX match_seats_entrant ON match_seats (entrant, match_id);
CREATE INDEX rating_history_entrant ON rating_history (entrant, match_id);
