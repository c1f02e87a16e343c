-- 010_placement.sql — where each entrant (or team) finished in a knockout
-- format: by the stage reached, then the tie-break chain (docs/rules/
-- placement.md). The scheduler writes the whole table again after every
-- round (plan_placement), so standings so far are ordered the same way;
-- the formats without stages (round robin, swiss, gauntlet) have no rows
-- and rank by points. `tiebreak` says how a tie at the unit's table was
-- settled ('' none); the same text is filed as a `tie-break` event.
CREATE TABLE placements (
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    teams    boolean NOT NULL,       -- unit is a team's idx (partnership play), else an entrant's
    unit     int NOT NULL,
    place    int NOT NULL,           -- 1 = champion
    reached  text NOT NULL,          -- 'champion', 'final', 'semi-final', 'round 2', 'group stage' ...
    tiebreak text NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, unit)
);
